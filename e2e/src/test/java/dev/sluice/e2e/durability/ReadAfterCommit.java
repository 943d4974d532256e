package dev.sluice.e2e.durability;

import static java.util.Objects.requireNonNull;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.apache.iceberg.BaseTable;
import org.apache.iceberg.Table;
import org.apache.iceberg.catalog.TableIdentifier;
import org.apache.iceberg.rest.RESTCatalog;

/**
 * Cross-replica read-after-commit staleness: one commit at a time through a writer replica; once it
 * is acknowledged, every other replica is loaded over and over (all at once, one thread each) until
 * it answers the new metadata location. A commit's staleness on a replica is the time from the
 * acknowledgement to the end of the first load there that answered it: it includes that load's own
 * round trip, so it is an upper bound. The time to that load's start is a lower bound (about 0 when
 * the first load after the acknowledgement already answered it).
 */
final class ReadAfterCommit {
  /**
   * What a measurement saw, one sample per commit and reading replica: {@code lagMicros} to the end
   * of the answering load (upper bound), {@code startLagMicros} to its start (lower bound); both
   * sorted.
   */
  record Figures(
      int commits,
      List<Long> lagMicros,
      List<Long> startLagMicros,
      int staleFirstLoads,
      long staleLoads) {
    long percentileMicros(int p) {
      return percentile(lagMicros, p);
    }

    String summary() {
      return String.format(
          Locale.ROOT,
          "commits=%d samples=%d p50_ms=%.2f p99_ms=%.2f max_ms=%.2f (to answering load's start:"
              + " p50_ms=%.2f p99_ms=%.2f max_ms=%.2f) stale_first_loads=%d stale_loads=%d",
          commits,
          lagMicros.size(),
          percentile(lagMicros, 50) / 1000.0,
          percentile(lagMicros, 99) / 1000.0,
          percentile(lagMicros, 100) / 1000.0,
          percentile(startLagMicros, 50) / 1000.0,
          percentile(startLagMicros, 99) / 1000.0,
          percentile(startLagMicros, 100) / 1000.0,
          staleFirstLoads,
          staleLoads);
    }

    private static long percentile(List<Long> sorted, int p) {
      if (sorted.isEmpty()) {
        return 0;
      }
      int rank = (int) Math.ceil(p / 100.0 * sorted.size());
      return sorted.get(Math.max(0, rank - 1));
    }
  }

  private record Seen(long lagMicros, long startLagMicros, int staleLoads) {}

  private final ReplicaCluster cluster;
  private final PointerReads reads;
  private final int writer;
  private final List<Integer> readers;
  private final Duration deadline;

  /**
   * @param deadline how long a replica may keep answering the old location before the measurement
   *     fails (a missed invalidation would never heal on a table nobody else writes)
   */
  ReadAfterCommit(
      ReplicaCluster cluster,
      PointerReads reads,
      int writer,
      List<Integer> readers,
      Duration deadline) {
    this.cluster = requireNonNull(cluster, "cluster");
    this.reads = requireNonNull(reads, "reads");
    this.writer = writer;
    this.readers = List.copyOf(readers);
    this.deadline = requireNonNull(deadline, "deadline");
  }

  /**
   * Commits to {@code table} (only this measurement may write it) up to {@code maxCommits} times,
   * or until {@code untilNanos}, measuring each commit.
   */
  Figures measure(TableIdentifier table, int maxCommits, long untilNanos) throws Exception {
    List<Long> lags = new ArrayList<>();
    List<Long> startLags = new ArrayList<>();
    int staleFirst = 0;
    long stale = 0;
    int commits = 0;
    ExecutorService pool = Executors.newFixedThreadPool(readers.size());
    try (RESTCatalog catalog = cluster.client(writer, "staleness-writer-r" + writer)) {
      Table t = catalog.loadTable(table);
      for (String expected = location(t);
          commits < maxCommits && System.nanoTime() < untilNanos;
          commits++) {
        // Every reader has the current location cached before the commit moves it.
        for (int r : readers) {
          awaitLocation(r, table, expected, System.nanoTime());
        }
        t.updateProperties().set("staleness", Integer.toString(commits)).commit();
        long acked = System.nanoTime();
        String next = location(t);
        List<Future<Seen>> polls = new ArrayList<>();
        for (int r : readers) {
          polls.add(pool.submit(() -> awaitLocation(r, table, next, acked)));
        }
        for (Future<Seen> f : polls) {
          Seen seen = get(f);
          lags.add(seen.lagMicros());
          startLags.add(seen.startLagMicros());
          staleFirst += seen.staleLoads() > 0 ? 1 : 0;
          stale += seen.staleLoads();
        }
        expected = next;
      }
    } finally {
      pool.shutdownNow();
    }
    Collections.sort(lags);
    Collections.sort(startLags);
    return new Figures(commits, List.copyOf(lags), List.copyOf(startLags), staleFirst, stale);
  }

  private Seen awaitLocation(int replica, TableIdentifier table, String expected, long since) {
    int staleLoads = 0;
    while (true) {
      long start = System.nanoTime();
      String answered = reads.load(replica, table).metadataLocation();
      long now = System.nanoTime();
      if (answered.equals(expected)) {
        return new Seen((now - since) / 1_000, Math.max(0, start - since) / 1_000, staleLoads);
      }
      staleLoads++;
      if (now - since > deadline.toNanos()) {
        throw new AssertionError(
            "r"
                + replica
                + " still answered "
                + answered
                + " for "
                + table
                + " "
                + deadline.toMillis()
                + " ms after "
                + expected
                + " was acknowledged by r"
                + writer);
      }
    }
  }

  private static Seen get(Future<Seen> f) throws Exception {
    try {
      return f.get();
    } catch (ExecutionException e) {
      if (e.getCause() instanceof Error error) {
        throw error;
      }
      throw (Exception) e.getCause();
    }
  }

  static String location(Table table) {
    return ((BaseTable) table).operations().current().metadataFileLocation();
  }
}
