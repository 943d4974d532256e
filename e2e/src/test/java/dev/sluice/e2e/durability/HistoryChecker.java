package dev.sluice.e2e.durability;

import static java.util.Objects.requireNonNull;

import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Checks a recorded history of append attempts against the tables' final states: "no lost commit,
 * no torn table". Pure logic, no I/O.
 *
 * <p>Input: every attempted append (who, through which replica, on which table, the unique data
 * file it added, and what the client was told) and, per table, every snapshot of its final metadata
 * with the data files each one added. The checks, per table:
 *
 * <ul>
 *   <li>the snapshots form one chain: ids unique, every parent present (no gap), exactly one root,
 *       no two snapshots with the same parent (no fork), every snapshot reachable from the current
 *       one, sequence numbers strictly increasing from the root to the current snapshot;
 *   <li>no data file appears twice along the chain, and every file on it was attempted on this
 *       table;
 *   <li>every {@link Outcome#ACKED} append's file is on the chain (exactly once: see above), no
 *       {@link Outcome#REFUSED} append's file is, an {@link Outcome#UNKNOWN} one at most once.
 * </ul>
 *
 * <p>{@link #check} returns a {@link Report} or throws an {@link AssertionError} describing the
 * first violation found.
 */
public final class HistoryChecker {

  /** What the client was told about an append. */
  public enum Outcome {
    /** 200: the append is committed and must stay. */
    ACKED,
    /** 409: the append was refused and must not appear. */
    REFUSED,
    /**
     * Timeout, 5xx, connection refused or reset: may or may not have been applied (at most once).
     */
    UNKNOWN
  }

  /** One attempted append of one data file. */
  public record Operation(
      String writer, String replica, String table, String file, Outcome outcome, String detail) {
    public Operation {
      requireNonNull(writer, "writer");
      requireNonNull(replica, "replica");
      requireNonNull(table, "table");
      requireNonNull(file, "file");
      requireNonNull(outcome, "outcome");
    }

    public Operation(String writer, String replica, String table, String file, Outcome outcome) {
      this(writer, replica, table, file, outcome, null);
    }

    String describe() {
      return outcome
          + " append of "
          + file
          + " by writer "
          + writer
          + " via replica "
          + replica
          + (detail == null ? "" : " (" + detail + ")");
    }
  }

  /** One snapshot of a table's final metadata. {@code parentId} is null for a root. */
  public record SnapshotRecord(
      long id, Long parentId, long sequenceNumber, List<String> addedFiles) {
    public SnapshotRecord {
      addedFiles = List.copyOf(addedFiles);
    }
  }

  /**
   * A table's final state: its current snapshot (null if none) and all snapshots in its metadata.
   */
  public record TableState(String table, Long currentSnapshotId, List<SnapshotRecord> snapshots) {
    public TableState {
      requireNonNull(table, "table");
      snapshots = List.copyOf(snapshots);
    }
  }

  /**
   * Counts over all checked tables (a report exists only for a history without violations: a lost
   * append is one, so there is no count of lost appends).
   */
  public record Report(
      int tables, int snapshots, long acked, long refused, long unknown, long unknownApplied) {
    @Override
    public String toString() {
      return "tables="
          + tables
          + " snapshots="
          + snapshots
          + " acked="
          + acked
          + " refused="
          + refused
          + " unknown="
          + unknown
          + " unknown_applied="
          + unknownApplied;
    }
  }

  private HistoryChecker() {}

  /**
   * Checks {@code operations} against {@code finalStates}; every table with an operation must have
   * a final state.
   *
   * @throws AssertionError at the first violation
   * @throws IllegalArgumentException if the input itself is malformed (a data file attempted twice,
   *     two states for one table)
   */
  public static Report check(Collection<Operation> operations, Collection<TableState> finalStates) {
    Map<String, TableState> states = new LinkedHashMap<>();
    for (TableState state : finalStates) {
      if (states.put(state.table(), state) != null) {
        throw new IllegalArgumentException("two final states for table " + state.table());
      }
    }
    Map<String, Map<String, Operation>> opsByTable = new LinkedHashMap<>();
    Set<String> allFiles = new HashSet<>();
    for (Operation op : operations) {
      if (!allFiles.add(op.file())) {
        throw new IllegalArgumentException(
            "data file " + op.file() + " was attempted twice: paths must be unique");
      }
      opsByTable.computeIfAbsent(op.table(), t -> new LinkedHashMap<>()).put(op.file(), op);
    }
    for (String table : opsByTable.keySet()) {
      if (!states.containsKey(table)) {
        throw new AssertionError(
            "table " + table + " has recorded appends but no final state (was it read?)");
      }
    }

    long acked = 0;
    long refused = 0;
    long unknown = 0;
    long unknownApplied = 0;
    int snapshots = 0;
    for (TableState state : states.values()) {
      Map<String, Long> fileToSnapshot = checkChain(state);
      snapshots += state.snapshots().size();
      Map<String, Operation> ops = opsByTable.getOrDefault(state.table(), Map.of());
      for (Map.Entry<String, Long> f : fileToSnapshot.entrySet()) {
        if (!ops.containsKey(f.getKey())) {
          throw new AssertionError(
              "table "
                  + state.table()
                  + ": data file "
                  + f.getKey()
                  + " (snapshot "
                  + f.getValue()
                  + ") was never appended to this table");
        }
      }
      for (Operation op : ops.values()) {
        Long snapshot = fileToSnapshot.get(op.file());
        switch (op.outcome()) {
          case ACKED -> {
            acked++;
            if (snapshot == null) {
              throw new AssertionError(
                  "table "
                      + state.table()
                      + ": lost commit: the "
                      + op.describe()
                      + " is missing from the final history ("
                      + state.snapshots().size()
                      + " snapshots)");
            }
          }
          case REFUSED -> {
            refused++;
            if (snapshot != null) {
              throw new AssertionError(
                  "table "
                      + state.table()
                      + ": the "
                      + op.describe()
                      + " is present in the final history (snapshot "
                      + snapshot
                      + ")");
            }
          }
          case UNKNOWN -> {
            unknown++;
            if (snapshot != null) {
              unknownApplied++;
            }
          }
        }
      }
    }
    return new Report(states.size(), snapshots, acked, refused, unknown, unknownApplied);
  }

  /**
   * Checks that {@code state}'s snapshots form one chain ending at the current snapshot, and
   * returns each data file on it with the snapshot that added it.
   */
  private static Map<String, Long> checkChain(TableState state) {
    String t = "table " + state.table() + ": ";
    Map<Long, SnapshotRecord> byId = new HashMap<>();
    for (SnapshotRecord s : state.snapshots()) {
      if (byId.put(s.id(), s) != null) {
        throw new AssertionError(t + "fork: snapshot id " + s.id() + " appears twice");
      }
    }
    List<Long> roots = new ArrayList<>();
    Map<Long, Long> childOf = new HashMap<>();
    for (SnapshotRecord s : state.snapshots()) {
      if (s.parentId() == null) {
        roots.add(s.id());
        continue;
      }
      if (!byId.containsKey(s.parentId())) {
        throw new AssertionError(
            t
                + "gap: snapshot "
                + s.id()
                + " names parent "
                + s.parentId()
                + ", which is not in the table's metadata");
      }
      Long other = childOf.put(s.parentId(), s.id());
      if (other != null) {
        throw new AssertionError(
            t
                + "fork: snapshots "
                + other
                + " and "
                + s.id()
                + " both have parent "
                + s.parentId());
      }
    }
    if (state.snapshots().isEmpty()) {
      if (state.currentSnapshotId() != null) {
        throw new AssertionError(
            t + "current snapshot " + state.currentSnapshotId() + " but no snapshots");
      }
      return Map.of();
    }
    if (roots.size() != 1) {
      throw new AssertionError(
          t + "fork: " + roots.size() + " root snapshots (without parent): " + roots);
    }
    if (state.currentSnapshotId() == null) {
      throw new AssertionError(
          t + "no current snapshot, yet " + state.snapshots().size() + " snapshots");
    }
    SnapshotRecord current = byId.get(state.currentSnapshotId());
    if (current == null) {
      throw new AssertionError(
          t
              + "gap: the current snapshot "
              + state.currentSnapshotId()
              + " is not in the table's metadata");
    }
    // Walk from the current snapshot to the root (parents exist, so this ends at the root or
    // loops).
    List<SnapshotRecord> chain = new ArrayList<>();
    Set<Long> onChain = new HashSet<>();
    for (SnapshotRecord s = current;
        s != null;
        s = s.parentId() == null ? null : byId.get(s.parentId())) {
      if (!onChain.add(s.id())) {
        throw new AssertionError(t + "the snapshot chain loops at snapshot " + s.id());
      }
      chain.add(s);
    }
    if (chain.size() != byId.size()) {
      Long off =
          state.snapshots().stream()
              .map(SnapshotRecord::id)
              .filter(id -> !onChain.contains(id))
              .findFirst()
              .orElseThrow();
      throw new AssertionError(
          t
              + "fork: snapshot "
              + off
              + " is not on the chain of the current snapshot "
              + current.id()
              + " ("
              + chain.size()
              + " of "
              + byId.size()
              + " snapshots are)");
    }
    Map<String, Long> files = new HashMap<>();
    for (int i = chain.size() - 1; i >= 0; i--) { // root first
      SnapshotRecord s = chain.get(i);
      if (i < chain.size() - 1) {
        SnapshotRecord parent = chain.get(i + 1);
        if (s.sequenceNumber() <= parent.sequenceNumber()) {
          throw new AssertionError(
              t
                  + "sequence numbers do not increase: snapshot "
                  + s.id()
                  + " has "
                  + s.sequenceNumber()
                  + ", its parent "
                  + parent.id()
                  + " has "
                  + parent.sequenceNumber());
        }
      }
      for (String file : s.addedFiles()) {
        Long before = files.putIfAbsent(file, s.id());
        if (before != null) {
          throw new AssertionError(
              t
                  + "data file "
                  + file
                  + " appears twice: added by snapshot "
                  + before
                  + " and again by snapshot "
                  + s.id());
        }
      }
    }
    return files;
  }
}
