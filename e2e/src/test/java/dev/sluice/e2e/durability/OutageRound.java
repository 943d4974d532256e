package dev.sluice.e2e.durability;

import static java.util.Objects.requireNonNull;

import dev.sluice.e2e.durability.ListenerConnections.Listener;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import org.apache.iceberg.Table;
import org.apache.iceberg.catalog.TableIdentifier;
import org.apache.iceberg.rest.RESTCatalog;

/**
 * One outage of the pointer change feed: every replica's LISTEN connection terminated by
 * PostgreSQL, then at once one commit to each of a few tables nobody else writes (their NOTIFYs may
 * reach no replica), then waiting until every replica listens and serves from its cache again, then
 * loading those tables on every replica.
 *
 * <p>With {@code holdOff}, the database refuses new connections from just before the kill until the
 * last of those commits is acknowledged, so no replica can listen again before they are all in:
 * every one of them is then checked strictly (below).
 *
 * <p>A commit acknowledged before the first new LISTEN connection's backend started was in the
 * database before any replica flushed its cache on resubscribing: the first load after that must
 * show it ({@link #staleAfterResubscribe}). A later one is announced on the new connection: it must
 * show within the staleness bound ({@link #notConverged}).
 *
 * @param round 0, 1, ...
 * @param heldOff whether new connections were refused during the outage commits
 * @param via the replica the outage tables were committed through
 * @param killNanos when the connections were terminated
 * @param terminated the backend pids terminated
 * @param listenersAfter the listener connections once all replicas listen again
 * @param firstNewBackendMicros when the earliest new listener backend started (µs since the epoch)
 * @param servingAgainNanos per replica, when it was seen listening and serving again (after its
 *     flush)
 * @param outageTables how many untouched tables were committed during the outage
 * @param strictTables how many outage commits were acknowledged before any replica could listen
 *     again: before the refusal lifted when held off, else before {@code firstNewBackendMicros}
 * @param staleFirstLoads first loads after resubscribe that answered the old pointer
 */
record OutageRound(
    int round,
    boolean heldOff,
    int via,
    long killNanos,
    List<Integer> terminated,
    List<Listener> listenersAfter,
    long firstNewBackendMicros,
    long[] servingAgainNanos,
    int outageTables,
    int strictTables,
    int staleFirstLoads,
    List<String> staleAfterResubscribe,
    List<String> notConverged) {

  /** Runs one outage on {@code cluster} with {@code tables} as its untouched tables. */
  static OutageRound run(
      ReplicaCluster cluster,
      PointerReads reads,
      ListenerConnections listeners,
      int round,
      boolean holdOff,
      List<TableIdentifier> tables,
      Duration bound,
      Duration recovery)
      throws InterruptedException {
    requireNonNull(cluster, "cluster");
    int replicas = cluster.size();
    int via = round % replicas;
    try (RESTCatalog catalog = cluster.client(via, "coh-outage" + round + "-r" + via)) {
      List<Table> loaded = tables.stream().map(catalog::loadTable).toList();
      // Every replica answers the current pointers, so it holds them in its cache.
      for (int r = 0; r < replicas; r++) {
        for (TableIdentifier id : tables) {
          reads.load(r, id);
          reads.load(r, id);
        }
      }
      long[] reconnectsBefore = new long[replicas];
      for (int r = 0; r < replicas; r++) {
        reconnectsBefore[r] =
            ReplicaMetrics.of(cluster.replica(r)).count(ReplicaMetrics.LISTENER_RECONNECTS);
      }

      List<String> committed = new ArrayList<>();
      long[] ackNanos = new long[tables.size()];
      long killNanos;
      long liftNanos;
      List<Integer> terminated;
      try (ListenerConnections.Refusal held = holdOff ? listeners.refuseNewConnections() : null) {
        killNanos = System.nanoTime();
        terminated = listeners.terminateAll();
        for (int i = 0; i < tables.size(); i++) {
          Table t = loaded.get(i);
          t.updateProperties().set("outage", Integer.toString(round)).commit();
          ackNanos[i] = System.nanoTime();
          committed.add(ReadAfterCommit.location(t));
        }
        liftNanos = System.nanoTime();
      }

      long[] servingAgain = new long[replicas];
      for (int r = 0; r < replicas; r++) {
        servingAgain[r] = awaitServing(cluster.replica(r), reconnectsBefore[r], recovery);
      }
      List<Listener> after = listeners.await(replicas, recovery);
      long firstNewBackend =
          after.stream()
              .filter(l -> !terminated.contains(l.pid()))
              .mapToLong(Listener::backendStartMicros)
              .min()
              .orElse(Long.MAX_VALUE);

      int strict = 0;
      int staleFirst = 0;
      List<String> staleAfter = new ArrayList<>();
      List<String> notConverged = new ArrayList<>();
      // When no replica can have listened yet. Held off: no new connection authenticates, so none
      // issues LISTEN, before ALLOW_CONNECTIONS is back, and that began after the last ack. A
      // backend's start time is no such bound there: PostgreSQL forks a backend before it checks
      // the database, so a retry forked during the refusal can be the one let in, and it can start
      // within the margin below of the last ack (a CI run judged 2 of 3 commits strict that way).
      // Not held off: the earliest new backend's start, with a millisecond of margin for the two
      // clocks' readings.
      long noListenBeforeMicros =
          holdOff ? WallClock.toWallMicros(liftNanos) : firstNewBackend - 1_000;
      for (int i = 0; i < tables.size(); i++) {
        boolean beforeListen = WallClock.toWallMicros(ackNanos[i]) < noListenBeforeMicros;
        strict += beforeListen ? 1 : 0;
        for (int r = 0; r < replicas; r++) {
          String answered = reads.load(r, tables.get(i)).metadataLocation();
          if (answered.equals(committed.get(i))) {
            continue;
          }
          staleFirst++;
          String what = tables.get(i) + " on r" + r + " answered " + answered;
          if (beforeListen) {
            staleAfter.add(what + ", committed before the replicas listened again");
          }
          long deadline = System.nanoTime() + bound.toNanos();
          while (!answered.equals(committed.get(i)) && System.nanoTime() < deadline) {
            answered = reads.load(r, tables.get(i)).metadataLocation();
          }
          if (!answered.equals(committed.get(i))) {
            notConverged.add(what);
          }
        }
      }
      return new OutageRound(
          round,
          holdOff,
          via,
          killNanos,
          terminated,
          after,
          firstNewBackend,
          servingAgain,
          tables.size(),
          strict,
          staleFirst,
          staleAfter,
          notConverged);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** Waits until {@code replica} has subscribed again and serves from its cache; returns when. */
  private static long awaitServing(
      ReplicaCluster.Replica replica, long reconnectsBefore, Duration recovery)
      throws InterruptedException {
    long deadline = System.nanoTime() + recovery.toNanos();
    while (true) {
      ReplicaMetrics m = ReplicaMetrics.of(replica);
      if (m.count(ReplicaMetrics.LISTENER_RECONNECTS) > reconnectsBefore
          && m.value(ReplicaMetrics.LISTENER_HEALTHY) == 1.0) {
        return System.nanoTime();
      }
      if (System.nanoTime() > deadline) {
        throw new AssertionError(
            replica.id() + " did not listen again within " + recovery + " after the kill");
      }
      Thread.sleep(5);
    }
  }

  void print() {
    long[] resubscribedMs = new long[servingAgainNanos.length];
    for (int r = 0; r < resubscribedMs.length; r++) {
      resubscribedMs[r] = (servingAgainNanos[r] - killNanos) / 1_000_000;
    }
    System.out.printf(
        Locale.ROOT,
        "COHERENCE outage round=%d held_off=%s terminated=%d listeners_after=%d outage_commits_via=r%d"
            + " outage_tables=%d committed_before_listen=%d serving_again_after_ms=%s"
            + " first_new_listener_after_ms=%.1f stale_first_loads=%d stale_after_resubscribe=%d"
            + " not_converged=%d%n",
        round,
        heldOff,
        terminated.size(),
        listenersAfter.size(),
        via,
        outageTables,
        strictTables,
        Arrays.toString(resubscribedMs),
        (WallClock.toNanos(firstNewBackendMicros) - killNanos) / 1e6,
        staleFirstLoads,
        staleAfterResubscribe.size(),
        notConverged.size());
  }
}
