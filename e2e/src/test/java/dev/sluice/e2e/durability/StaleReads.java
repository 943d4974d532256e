package dev.sluice.e2e.durability;

import static java.util.Objects.requireNonNull;

import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * Which loads answered a table state older than one already acknowledged to a writer before the
 * load began. Pure logic: acknowledgements and reads carry {@code System.nanoTime()} stamps taken
 * in the test process, and a table's {@code last-sequence-number} orders its states (every
 * acknowledged append raises it).
 */
final class StaleReads {
  /** A commit acknowledged to its writer at {@code ackNanos}, leaving the table at {@code seq}. */
  record Ack(String table, long sequence, long ackNanos) {
    Ack {
      requireNonNull(table, "table");
    }
  }

  /** A load through {@code replica} sent at {@code startNanos} that answered {@code sequence}. */
  record Read(int replica, String table, long startNanos, long endNanos, long sequence) {
    Read {
      requireNonNull(table, "table");
    }
  }

  /**
   * A stale read: {@code missed} is the oldest acknowledged state it did not show, {@code lagNanos}
   * how long before the load began that state had been acknowledged.
   */
  record Stale(Read read, Ack missed, long lagNanos) {}

  private final Map<String, TreeMap<Long, Ack>> acksByTable = new HashMap<>();

  StaleReads(Collection<Ack> acks) {
    for (Ack a : acks) {
      acksByTable.computeIfAbsent(a.table(), t -> new TreeMap<>()).put(a.sequence(), a);
    }
  }

  /** The highest state of {@code table} acknowledged before {@code nanos}, or -1. */
  long acknowledgedBefore(String table, long nanos) {
    long best = -1;
    for (Ack a : acksByTable.getOrDefault(table, new TreeMap<>()).values()) {
      if (a.ackNanos() < nanos && a.sequence() > best) {
        best = a.sequence();
      }
    }
    return best;
  }

  /** The stale reads among {@code reads}, each with its oldest missed acknowledgement. */
  List<Stale> find(Collection<Read> reads) {
    List<Stale> stale = new ArrayList<>();
    for (Read r : reads) {
      TreeMap<Long, Ack> acks = acksByTable.get(r.table());
      if (acks == null) {
        continue;
      }
      Ack oldestMissed = null;
      for (Ack a : acks.tailMap(r.sequence(), false).values()) {
        if (a.ackNanos() < r.startNanos()
            && (oldestMissed == null || a.ackNanos() < oldestMissed.ackNanos())) {
          oldestMissed = a;
        }
      }
      if (oldestMissed != null) {
        stale.add(new Stale(r, oldestMissed, r.startNanos() - oldestMissed.ackNanos()));
      }
    }
    return stale;
  }
}
