package dev.sluice.client;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import org.junit.jupiter.api.Test;

class TableRefTest {

  @Test
  void parsesDottedNames() {
    assertThat(TableRef.parse("ns.t")).isEqualTo(new TableRef(List.of("ns"), "t"));
    assertThat(TableRef.parse("a.b.t")).isEqualTo(new TableRef(List.of("a", "b"), "t"));
    assertThat(TableRef.parse("a.b.t")).hasToString("a.b.t");
  }

  @Test
  void refusesIncompleteNames() {
    for (String bad : List.of("t", "", ".t", "ns.", "a..t")) {
      assertThatThrownBy(() -> TableRef.parse(bad))
          .as(bad)
          .isInstanceOf(IllegalArgumentException.class);
    }
  }
}
