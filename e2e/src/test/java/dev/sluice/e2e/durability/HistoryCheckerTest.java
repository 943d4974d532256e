package dev.sluice.e2e.durability;

import static dev.sluice.e2e.durability.HistoryChecker.Outcome.ACKED;
import static dev.sluice.e2e.durability.HistoryChecker.Outcome.REFUSED;
import static dev.sluice.e2e.durability.HistoryChecker.Outcome.UNKNOWN;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.sluice.e2e.durability.HistoryChecker.Operation;
import dev.sluice.e2e.durability.HistoryChecker.Outcome;
import dev.sluice.e2e.durability.HistoryChecker.Report;
import dev.sluice.e2e.durability.HistoryChecker.SnapshotRecord;
import dev.sluice.e2e.durability.HistoryChecker.TableState;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The history checker accepts a correct history and catches each kind of broken one. */
class HistoryCheckerTest {

  private static Operation op(String writer, String file, Outcome outcome) {
    return new Operation(writer, "r" + writer.charAt(1), "t", file, outcome);
  }

  private static SnapshotRecord snap(long id, Long parent, long seq, String... files) {
    return new SnapshotRecord(id, parent, seq, List.of(files));
  }

  private static TableState table(Long current, SnapshotRecord... snapshots) {
    return new TableState("t", current, List.of(snapshots));
  }

  /**
   * w1 and w2 race: w1 wins twice, w2 is refused once, w3 times out once (applied) and once (not).
   */
  private static final List<Operation> RACE =
      List.of(
          op("w1", "f1", ACKED),
          op("w2", "f2", REFUSED),
          op("w1", "f3", ACKED),
          op("w3", "f4", UNKNOWN),
          op("w3", "f5", UNKNOWN),
          op("w2", "f6", ACKED));

  @Test
  void aCorrectHistoryPasses() {
    TableState state =
        table(
            14L,
            snap(11, null, 1, "f1"),
            snap(12, 11L, 2, "f3"),
            snap(13, 12L, 3, "f4"),
            snap(14, 13L, 4, "f6"));
    TableState other = new TableState("u", 21L, List.of(snap(21, null, 1, "g1")));

    Report report =
        HistoryChecker.check(
            concat(RACE, List.of(new Operation("w9", "r1", "u", "g1", ACKED))),
            List.of(state, other));

    assertThat(report).isEqualTo(new Report(2, 5, 4, 1, 2, 1));
    assertThat(report.toString()).contains("acked=4").contains("unknown_applied=1");
  }

  @Test
  void snapshotsMayBeListedInAnyOrderAndAnEmptyTablePasses() {
    TableState state =
        table(
            14L,
            snap(14, 13L, 7, "f6"),
            snap(12, 11L, 2, "f3"),
            snap(11, null, 1, "f1"),
            snap(13, 12L, 5, "f4"));

    assertThat(HistoryChecker.check(RACE, List.of(state)).acked()).isEqualTo(3);
    assertThat(HistoryChecker.check(List.of(), List.of(table(null))).snapshots()).isZero();
    assertThat(
            HistoryChecker.check(List.of(op("w2", "f2", REFUSED)), List.of(table(null))).refused())
        .isOne();
  }

  @Test
  void anAcknowledgedCommitMissingFails() {
    // A broken compare-and-set: w1 (f3) and w2 (f6) both "win" from base 11; w2's metadata,
    // written from the same base, replaces w1's, so w1's acknowledged snapshot 12 is gone.
    TableState state = table(14L, snap(11, null, 1, "f1"), snap(14, 11L, 2, "f6"));

    assertThatThrownBy(() -> HistoryChecker.check(RACE, List.of(state)))
        .isInstanceOf(AssertionError.class)
        .hasMessageContaining("lost commit")
        .hasMessageContaining("f3")
        .hasMessageContaining("writer w1");
  }

  @Test
  void aFileAppearingTwiceFails() {
    // e.g. a retried commit applied twice
    TableState state =
        table(
            15L,
            snap(11, null, 1, "f1"),
            snap(12, 11L, 2, "f3"),
            snap(14, 12L, 3, "f6"),
            snap(15, 14L, 4, "f3"));

    assertThatThrownBy(() -> HistoryChecker.check(RACE, List.of(state)))
        .isInstanceOf(AssertionError.class)
        .hasMessageContaining("f3 appears twice");
  }

  @Test
  void anUnknownCommitAppliedTwiceFails() {
    TableState state =
        table(
            15L,
            snap(11, null, 1, "f1"),
            snap(12, 11L, 2, "f3"),
            snap(13, 12L, 3, "f4"),
            snap(14, 13L, 4, "f6"),
            snap(15, 14L, 5, "f4"));

    assertThatThrownBy(() -> HistoryChecker.check(RACE, List.of(state)))
        .isInstanceOf(AssertionError.class)
        .hasMessageContaining("f4 appears twice");
  }

  @Test
  void aRefusedCommitPresentFails() {
    TableState state =
        table(
            14L,
            snap(11, null, 1, "f1"),
            snap(12, 11L, 2, "f3"),
            snap(13, 12L, 3, "f2"),
            snap(14, 13L, 4, "f6"));

    assertThatThrownBy(() -> HistoryChecker.check(RACE, List.of(state)))
        .isInstanceOf(AssertionError.class)
        .hasMessageContaining("REFUSED append of f2")
        .hasMessageContaining("is present");
  }

  @Test
  void aForkFails() {
    // 12 and 13 both built on 11; the current chain keeps 13 and the file of 12 looks "present"
    // in the metadata's snapshot list but is off the chain.
    TableState state =
        table(
            14L,
            snap(11, null, 1, "f1"),
            snap(12, 11L, 2, "f3"),
            snap(13, 11L, 2, "f6"),
            snap(14, 13L, 3));

    assertThatThrownBy(() -> HistoryChecker.check(RACE, List.of(state)))
        .isInstanceOf(AssertionError.class)
        .hasMessageContaining("fork")
        .hasMessageContaining("both have parent 11");
  }

  @Test
  void aSnapshotOffTheCurrentChainFails() {
    // No fork in the parent links, but the current snapshot is not the tip.
    TableState state =
        table(12L, snap(11, null, 1, "f1"), snap(12, 11L, 2, "f3"), snap(14, 12L, 3, "f6"));

    assertThatThrownBy(() -> HistoryChecker.check(RACE, List.of(state)))
        .isInstanceOf(AssertionError.class)
        .hasMessageContaining("snapshot 14 is not on the chain");
  }

  @Test
  void twoRootsOrADuplicateSnapshotIdFail() {
    assertThatThrownBy(
            () ->
                HistoryChecker.check(
                    RACE,
                    List.of(
                        table(
                            14L,
                            snap(11, null, 1, "f1"),
                            snap(12, 11L, 2, "f3"),
                            snap(14, null, 3, "f6")))))
        .isInstanceOf(AssertionError.class)
        .hasMessageContaining("2 root snapshots");
    assertThatThrownBy(
            () ->
                HistoryChecker.check(
                    RACE,
                    List.of(
                        table(
                            12L,
                            snap(11, null, 1, "f1"),
                            snap(12, 11L, 2, "f3"),
                            snap(12, 11L, 3, "f6")))))
        .isInstanceOf(AssertionError.class)
        .hasMessageContaining("snapshot id 12 appears twice");
  }

  @Test
  void aGapFails() {
    // 14's parent 13 is missing from the metadata.
    TableState state =
        table(14L, snap(11, null, 1, "f1"), snap(12, 11L, 2, "f3"), snap(14, 13L, 4, "f6"));

    assertThatThrownBy(() -> HistoryChecker.check(RACE, List.of(state)))
        .isInstanceOf(AssertionError.class)
        .hasMessageContaining("gap")
        .hasMessageContaining("parent 13");
  }

  @Test
  void aMissingCurrentSnapshotFails() {
    assertThatThrownBy(
            () ->
                HistoryChecker.check(
                    RACE,
                    List.of(
                        table(
                            99L,
                            snap(11, null, 1, "f1"),
                            snap(12, 11L, 2, "f3"),
                            snap(14, 12L, 4, "f6")))))
        .isInstanceOf(AssertionError.class)
        .hasMessageContaining("current snapshot 99 is not in the table's metadata");
  }

  @Test
  void sequenceNumbersThatDoNotIncreaseFail() {
    TableState state =
        table(14L, snap(11, null, 1, "f1"), snap(12, 11L, 2, "f3"), snap(14, 12L, 2, "f6"));

    assertThatThrownBy(() -> HistoryChecker.check(RACE, List.of(state)))
        .isInstanceOf(AssertionError.class)
        .hasMessageContaining("sequence numbers do not increase");
  }

  @Test
  void aFileNobodyAppendedFails() {
    TableState state =
        table(
            14L, snap(11, null, 1, "f1"), snap(12, 11L, 2, "f3", "stray"), snap(14, 12L, 3, "f6"));

    assertThatThrownBy(() -> HistoryChecker.check(RACE, List.of(state)))
        .isInstanceOf(AssertionError.class)
        .hasMessageContaining("stray")
        .hasMessageContaining("never appended to this table");
  }

  @Test
  void aTableWithAppendsButNoFinalStateFails() {
    assertThatThrownBy(() -> HistoryChecker.check(RACE, List.of()))
        .isInstanceOf(AssertionError.class)
        .hasMessageContaining("no final state");
  }

  @Test
  void malformedInputIsRejected() {
    assertThatThrownBy(
            () ->
                HistoryChecker.check(
                    List.of(op("w1", "f1", ACKED), op("w2", "f1", REFUSED)), List.of(table(null))))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("attempted twice");
  }

  private static <T> List<T> concat(List<T> a, List<T> b) {
    return java.util.stream.Stream.concat(a.stream(), b.stream()).toList();
  }
}
