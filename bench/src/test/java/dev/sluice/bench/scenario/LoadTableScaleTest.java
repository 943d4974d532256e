package dev.sluice.bench.scenario;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

class LoadTableScaleTest {
  @Test
  void namesCountInThousandsAndMillionsWhereRound() {
    assertThat(LoadTableScale.nameFor(1_000)).isEqualTo("loadTable-1k");
    assertThat(LoadTableScale.nameFor(100_000)).isEqualTo("loadTable-100k");
    assertThat(LoadTableScale.nameFor(1_000_000)).isEqualTo("loadTable-1M");
    assertThat(LoadTableScale.nameFor(2_000_000)).isEqualTo("loadTable-2M");
    assertThat(LoadTableScale.nameFor(1_500)).isEqualTo("loadTable-1500");
    assertThat(LoadTableScale.nameFor(100)).isEqualTo("loadTable-100");
    assertThat(LoadTableScale.nameFor(1_500_000)).isEqualTo("loadTable-1500k");
  }

  @Test
  void aWorkingSetIsNamedAfterBothCountsAndAllTablesAfterOne() {
    assertThat(LoadTableScale.nameFor(1_000_000, 1_000)).isEqualTo("loadTable-1M-hot1k");
    assertThat(LoadTableScale.nameFor(100_000, LoadTableScale.WORKING_SET))
        .isEqualTo("loadTable-100k-hot1k");
    assertThat(LoadTableScale.nameFor(2_000, 500)).isEqualTo("loadTable-2k-hot500");
    assertThat(LoadTableScale.nameFor(1_000, 1_000)).isEqualTo("loadTable-1k");
    assertThat(new LoadTableScale(1_000_000, 1_000).name()).isEqualTo("loadTable-1M-hot1k");
    assertThat(new LoadTableScale(100_000).name()).isEqualTo("loadTable-100k");
  }

  @Test
  void theWorkingSetMustBeSomeOfTheTables() {
    assertThatThrownBy(() -> new LoadTableScale(1_000, 2_000))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("2000");
    assertThatThrownBy(() -> new LoadTableScale(1_000, 0))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("got 0");
  }
}
