package dev.sluice.store;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.junit.jupiter.api.Test;

class PointerChangeTest {
  @Test
  void payloadRoundTripsAndAnOversizedOneMeansEverything() {
    PointerChange change =
        new PointerChange(new PointerCache.Key("c\"at", "a\u001fb", "t,\u00e9"), 42);
    PointerChange other = new PointerChange(new PointerCache.Key("c", "n", "u"), 43);
    assertThat(PointerChange.parse(PointerChange.payload(List.of(change, other))))
        .containsExactly(change, other);
    PointerChange huge =
        new PointerChange(new PointerCache.Key("c", "n", "\u00e9".repeat(5000)), 1);
    assertThat(PointerChange.payload(List.of(change, huge))).isEqualTo(PointerChange.ALL);
    assertThat(PointerChange.parse(PointerChange.ALL)).isNull();
    assertThat(PointerChange.parse("[1,2]")).isNull();
    assertThat(PointerChange.parse("[]")).isNull();
    assertThat(PointerChange.parse("[[\"c\",\"n\",\"t\",1],[\"c\",\"n\"]]"))
        .as("one unreadable change spoils the whole notification (flush)")
        .isNull();
    // What a replica of the previous release sends: one change, not wrapped.
    assertThat(PointerChange.parse("[\"c\",\"n\",\"t\",7]"))
        .containsExactly(new PointerChange(new PointerCache.Key("c", "n", "t"), 7));
  }

  @Test
  void aBarrierIsOnlyOurOwnAndChangesNothing() {
    String ours = PointerChange.barrier("r1", 12);
    assertThat(PointerChange.barrierOf(ours, "r1")).isEqualTo(12);
    assertThat(PointerChange.barrierOf(ours, "r2")).isEqualTo(-1);
    assertThat(PointerChange.barrierOf("!r1:junk", "r1")).isEqualTo(-1);
    assertThat(PointerChange.barrierOf("[\"c\",\"n\",\"t\",7]", "r1")).isZero();
    assertThat(PointerChange.barrierOf(PointerChange.ALL, "r1")).isZero();
  }
}
