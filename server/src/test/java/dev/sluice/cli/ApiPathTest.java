package dev.sluice.cli;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class ApiPathTest {
  @Test
  void eachSegmentIsPercentEncoded() {
    assertThat(ApiPath.of("catalogs", "a b", "x/y", "p+q", "é"))
        .isEqualTo("/catalogs/a%20b/x%2Fy/p%2Bq/%C3%A9");
  }
}
