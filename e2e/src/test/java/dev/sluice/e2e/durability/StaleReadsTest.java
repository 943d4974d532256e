package dev.sluice.e2e.durability;

import static org.assertj.core.api.Assertions.assertThat;

import dev.sluice.e2e.durability.StaleReads.Ack;
import dev.sluice.e2e.durability.StaleReads.Read;
import dev.sluice.e2e.durability.StaleReads.Stale;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The stale-read check flags exactly the loads that missed an earlier acknowledgement. */
class StaleReadsTest {
  /** Table t went to 1 at 100, 2 at 200, 3 at 300; table u to 1 at 150. */
  private static final StaleReads ACKS =
      new StaleReads(
          List.of(
              new Ack("t", 1, 100),
              new Ack("t", 2, 200),
              new Ack("t", 3, 300),
              new Ack("u", 1, 150)));

  private static Read read(String table, long start, long sequence) {
    return new Read(1, table, start, start + 5, sequence);
  }

  @Test
  void aLoadShowingEverythingAcknowledgedBeforeItBeganIsFresh() {
    assertThat(ACKS.find(List.of(read("t", 250, 2), read("t", 350, 3), read("u", 160, 1))))
        .isEmpty();
  }

  @Test
  void aLoadMayMissWhatWasAcknowledgedAfterItBegan() {
    // Acknowledged at 200, but the load began at 199: either answer is right.
    assertThat(ACKS.find(List.of(read("t", 199, 1), read("t", 200, 1)))).isEmpty();
  }

  @Test
  void aLoadOlderThanAnEarlierAcknowledgementIsStaleWithItsLag() {
    List<Stale> stale = ACKS.find(List.of(read("t", 350, 1), read("u", 151, 0)));
    assertThat(stale).hasSize(2);
    // Missed 2 (acknowledged at 200) and 3: the lag counts from the oldest miss.
    assertThat(stale.get(0).missed().sequence()).isEqualTo(2);
    assertThat(stale.get(0).lagNanos()).isEqualTo(150);
    assertThat(stale.get(1).missed().table()).isEqualTo("u");
    assertThat(stale.get(1).lagNanos()).isEqualTo(1);
  }

  @Test
  void acknowledgedBeforeIsTheHighestStateAcknowledgedEarlier() {
    assertThat(ACKS.acknowledgedBefore("t", 100)).isEqualTo(-1);
    assertThat(ACKS.acknowledgedBefore("t", 101)).isEqualTo(1);
    assertThat(ACKS.acknowledgedBefore("t", 1_000)).isEqualTo(3);
    assertThat(ACKS.acknowledgedBefore("v", 1_000)).isEqualTo(-1);
  }
}
