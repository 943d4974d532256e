package dev.sluice.store;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class PointerChangeTest {
  @Test
  void payloadRoundTripsAndAnOversizedOneMeansEverything() {
    PointerChange change =
        new PointerChange(new PointerCache.Key("c\"at", "a\u001fb", "t,\u00e9"), 42);
    assertThat(PointerChange.parse(change.payload())).isEqualTo(change);
    PointerChange huge =
        new PointerChange(new PointerCache.Key("c", "n", "\u00e9".repeat(5000)), 1);
    assertThat(huge.payload()).isEqualTo(PointerChange.ALL);
    assertThat(PointerChange.parse(PointerChange.ALL)).isNull();
    assertThat(PointerChange.parse("[1,2]")).isNull();
  }
}
