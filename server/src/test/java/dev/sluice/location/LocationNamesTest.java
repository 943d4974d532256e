package dev.sluice.location;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;

class LocationNamesTest {
  private static final List<String> HOSTILE =
      List.of(
          "..", ".", "...", "a/b", "a%2Fb", "%2F", "%2E%2E", "a\\b", "~2F", "~", "a~2Fb", "a b",
          "é", "e\u0301", "\u0430", "a", "A", "a.b", "a_b", "a-b", "*", "$x", "?q", "#f", "a:b", "",
          "\u202e");

  @Test
  void plainNamesStayReadable() {
    assertThat(LocationNames.segment("orders_2024")).isEqualTo("orders_2024");
    assertThat(LocationNames.segment("my.table-v2")).isEqualTo("my.table-v2");
  }

  @Test
  void noNameEscapesItsFolderOrNeedsDecoding() {
    for (String name : HOSTILE) {
      if (name.isEmpty()) {
        continue;
      }
      String segment = LocationNames.segment(name);
      assertThat(segment)
          .as(name)
          .doesNotContain("/", "\\", "%", "?", "#", "*", "$", ":")
          .isNotIn(".", "..", "");
      assertThat(segment).as(name).matches("[A-Za-z0-9._~-]+");
      StorageLocation parent = StorageLocation.parse("s3://b/wh/ns");
      StorageLocation child = StorageLocation.parse("s3://b/wh/ns/" + segment);
      assertThat(child.segments()).as(name).hasSize(parent.segments().size() + 1);
      assertThat(LocationSafety.escapes("s3://b/wh/ns/" + segment)).as(name).isEmpty();
    }
    assertThat(LocationNames.segment("..")).isEqualTo("~2E~2E");
    assertThat(LocationNames.segment("a/b")).isEqualTo("a~2Fb");
  }

  @Test
  void distinctNamesNeverShareAFolder() {
    Set<String> seen = new HashSet<>();
    for (String name : HOSTILE) {
      if (!name.isEmpty()) {
        assertThat(seen.add(LocationNames.segment(name))).as(name).isTrue();
      }
    }
  }
}
