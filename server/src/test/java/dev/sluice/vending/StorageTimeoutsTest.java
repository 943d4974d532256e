package dev.sluice.vending;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import org.junit.jupiter.api.Test;

/** The value the storage clients are opened with: its defaults and what it refuses to hold. */
class StorageTimeoutsTest {
  private static final Duration S1 = Duration.ofSeconds(1);
  private static final Duration S2 = Duration.ofSeconds(2);

  @Test
  void theDefaultLoadWaitIsTheCallAndASecond() {
    assertThat(StorageTimeouts.Provider.DEFAULT)
        .isEqualTo(
            new StorageTimeouts.Provider(
                Duration.ofSeconds(3), Duration.ofSeconds(6), Duration.ofSeconds(7)));
    assertThat(StorageTimeouts.Provider.of(S1, S2).loadWait()).isEqualTo(Duration.ofSeconds(3));
    assertThat(StorageTimeouts.Provider.of(S1, S2).withLoadWait(S1).loadWait()).isEqualTo(S1);
  }

  @Test
  void attemptsWithinTheCallAreAtLeastOneAndAtMostTheMaximum() {
    assertThat(StorageTimeouts.CatalogIo.DEFAULT.attemptsWithinCall()).isEqualTo(2);
    assertThat(new StorageTimeouts.CatalogIo(S1, Duration.ofSeconds(9), 4).attemptsWithinCall())
        .isEqualTo(4);
    assertThat(new StorageTimeouts.CatalogIo(S2, Duration.ofMillis(2_500), 3).attemptsWithinCall())
        .isEqualTo(1);
    assertThat(StorageTimeouts.Provider.DEFAULT.attemptsWithinCall(3)).isEqualTo(2);
    assertThat(StorageTimeouts.Provider.of(S1, Duration.ofSeconds(10)).attemptsWithinCall(3))
        .isEqualTo(3);
  }

  @Test
  void itRefusesWhatNoClientCouldKeepTo() {
    assertThatThrownBy(() -> new StorageTimeouts.Provider(S2, S1, S2))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("provider call (PT1S) must not be shorter than its attempt (PT2S)");
    assertThatThrownBy(() -> new StorageTimeouts.Provider(Duration.ZERO, S1, S2))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("provider attempt must be positive, got PT0S");
    assertThatThrownBy(() -> new StorageTimeouts.Provider(S1, S1, Duration.ofSeconds(-1)))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("provider load wait must be positive, got PT-1S");
    assertThatThrownBy(() -> new StorageTimeouts.CatalogIo(S2, S1, 3))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("catalog I/O call (PT1S) must not be shorter than its attempt (PT2S)");
    assertThatThrownBy(() -> new StorageTimeouts.CatalogIo(S1, S2, 0))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("catalog I/O max attempts must be at least 1, got 0");
    assertThatThrownBy(() -> new StorageTimeouts.CatalogIo(null, S2, 1))
        .isInstanceOf(NullPointerException.class)
        .hasMessage("attempt");
    assertThatThrownBy(() -> new StorageTimeouts(StorageTimeouts.Provider.DEFAULT, null))
        .isInstanceOf(NullPointerException.class)
        .hasMessage("catalogIo");
  }
}
