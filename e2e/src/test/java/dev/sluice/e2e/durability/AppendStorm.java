package dev.sluice.e2e.durability;

import dev.sluice.e2e.durability.HistoryChecker.Operation;
import dev.sluice.e2e.durability.HistoryChecker.Outcome;
import dev.sluice.e2e.durability.HistoryChecker.SnapshotRecord;
import dev.sluice.e2e.durability.HistoryChecker.TableState;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicIntegerArray;
import java.util.function.Consumer;
import org.apache.iceberg.DataFile;
import org.apache.iceberg.DataFiles;
import org.apache.iceberg.PartitionSpec;
import org.apache.iceberg.Snapshot;
import org.apache.iceberg.Table;
import org.apache.iceberg.catalog.TableIdentifier;
import org.apache.iceberg.exceptions.CommitFailedException;
import org.apache.iceberg.exceptions.CommitStateUnknownException;
import org.apache.iceberg.exceptions.RESTException;
import org.apache.iceberg.exceptions.ServiceFailureException;
import org.apache.iceberg.exceptions.ServiceUnavailableException;
import org.apache.iceberg.io.CloseableIterable;
import org.apache.iceberg.rest.RESTCatalog;

/**
 * Concurrent writers, each appending one uniquely named data file per commit to its table through
 * its replica with Iceberg's {@code RESTCatalog}, for a fixed time; every attempt is recorded with
 * what the client was told. A writer whose replica was killed fails over to the next live one (as
 * behind a load balancer); its in-flight commit is recorded {@link Outcome#UNKNOWN}.
 */
final class AppendStorm {

  /** Writer {@code id} appends to {@code table} through replica {@code replica}. */
  record WriterSpec(String id, int replica, TableIdentifier table) {}

  /**
   * One attempt: the operation, when it started and ended (nanoTime), the replica it went to, and
   * for an acknowledged append the table's sequence number it produced (else -1).
   */
  record Attempt(Operation operation, long startNanos, long endNanos, int replica, long sequence) {
    StaleReads.Ack ack() {
      return new StaleReads.Ack(operation.table(), sequence, endNanos);
    }
  }

  /** What a storm did. {@code unexpected}: errors that are neither 409 nor an unknown outcome. */
  record Result(List<Attempt> attempts, double seconds, List<String> unexpected) {
    List<Operation> operations() {
      return attempts.stream().map(Attempt::operation).toList();
    }

    /** The acknowledged appends, as a stale-read check takes them. */
    List<StaleReads.Ack> acks() {
      return attempts.stream()
          .filter(a -> a.operation().outcome() == Outcome.ACKED)
          .map(Attempt::ack)
          .toList();
    }

    long count(Outcome outcome) {
      return attempts.stream().filter(a -> a.operation().outcome() == outcome).count();
    }

    double ackedPerSecond() {
      return count(Outcome.ACKED) / seconds;
    }
  }

  /** Hands the running storm to a hook (e.g. to kill a replica mid-storm). */
  interface Control {
    /** Commits in flight through {@code replica} right now. */
    int inFlight(int replica);

    long startNanos();
  }

  private final ReplicaCluster cluster;
  private final List<WriterSpec> writers;
  private final Duration duration;

  AppendStorm(ReplicaCluster cluster, List<WriterSpec> writers, Duration duration) {
    this.cluster = cluster;
    this.writers = List.copyOf(writers);
    this.duration = duration;
  }

  /** Runs the storm; {@code during} runs on the calling thread while the writers write. */
  Result run(Consumer<Control> during) throws InterruptedException {
    ConcurrentLinkedQueue<Attempt> attempts = new ConcurrentLinkedQueue<>();
    ConcurrentLinkedQueue<String> unexpected = new ConcurrentLinkedQueue<>();
    AtomicIntegerArray inFlight = new AtomicIntegerArray(cluster.size());
    CountDownLatch ready = new CountDownLatch(writers.size());
    CountDownLatch go = new CountDownLatch(1);
    long[] start = new long[1];
    List<Thread> threads = new ArrayList<>();
    AtomicInteger setupFailures = new AtomicInteger();
    for (WriterSpec spec : writers) {
      Thread t =
          new Thread(
              () -> {
                WriterLoop loop = new WriterLoop(spec, attempts, unexpected, inFlight);
                try {
                  loop.connect(spec.replica());
                } catch (RuntimeException e) {
                  setupFailures.incrementAndGet();
                  unexpected.add(spec.id() + ": setup failed: " + e);
                  ready.countDown();
                  return;
                }
                ready.countDown();
                try {
                  go.await();
                  loop.run(start[0] + duration.toNanos());
                } catch (InterruptedException e) {
                  Thread.currentThread().interrupt();
                } finally {
                  loop.close();
                }
              },
              "dur-writer-" + spec.id());
      t.setDaemon(true);
      threads.add(t);
      t.start();
    }
    ready.await();
    if (setupFailures.get() > 0) {
      go.countDown();
      throw new AssertionError("writers could not start: " + unexpected);
    }
    start[0] = System.nanoTime();
    go.countDown();
    during.accept(
        new Control() {
          @Override
          public int inFlight(int replica) {
            return inFlight.get(replica);
          }

          @Override
          public long startNanos() {
            return start[0];
          }
        });
    for (Thread t : threads) {
      t.join(duration.toMillis() + 60_000);
      if (t.isAlive()) {
        throw new AssertionError(
            "writer " + t.getName() + " still running 60 s after the storm's end");
      }
    }
    double seconds = (System.nanoTime() - start[0]) / 1e9;
    List<Attempt> all = new ArrayList<>(attempts);
    all.sort((a, b) -> Long.compare(a.startNanos(), b.startNanos()));
    return new Result(Collections.unmodifiableList(all), seconds, List.copyOf(unexpected));
  }

  Result run() throws InterruptedException {
    return run(control -> {});
  }

  private final class WriterLoop {
    private final WriterSpec spec;
    private final ConcurrentLinkedQueue<Attempt> attempts;
    private final ConcurrentLinkedQueue<String> unexpected;
    private final AtomicIntegerArray inFlight;
    private int replica;
    private RESTCatalog catalog;
    private Table table;
    private long seq;

    WriterLoop(
        WriterSpec spec,
        ConcurrentLinkedQueue<Attempt> attempts,
        ConcurrentLinkedQueue<String> unexpected,
        AtomicIntegerArray inFlight) {
      this.spec = spec;
      this.attempts = attempts;
      this.unexpected = unexpected;
      this.inFlight = inFlight;
    }

    void connect(int to) {
      close();
      replica = to;
      catalog = cluster.client(to, "dur-" + spec.id() + "-r" + to);
      table = catalog.loadTable(spec.table());
    }

    void run(long deadlineNanos) {
      while (System.nanoTime() < deadlineNanos && !Thread.currentThread().isInterrupted()) {
        String file = table.location() + "/data/" + spec.id() + "-" + (seq++) + ".parquet";
        DataFile dataFile =
            DataFiles.builder(PartitionSpec.unpartitioned())
                .withPath(file)
                .withFileSizeInBytes(10)
                .withRecordCount(1)
                .build();
        ReplicaCluster.Replica via = cluster.replica(replica);
        Outcome outcome;
        String detail = null;
        long begin = System.nanoTime();
        long sequence = -1;
        inFlight.incrementAndGet(replica);
        try {
          table.newAppend().appendFile(dataFile).commit();
          outcome = Outcome.ACKED;
          // The committed metadata, as the commit's response carried it.
          sequence = table.currentSnapshot().sequenceNumber();
        } catch (CommitFailedException e) {
          outcome = Outcome.REFUSED;
        } catch (RuntimeException e) {
          // Anything else leaves the outcome open: counted at most once by the checker. Only
          // timeouts, 5xx and transport errors are expected (and, through a killed replica,
          // anything).
          outcome = Outcome.UNKNOWN;
          detail = e.getClass().getSimpleName() + ": " + firstLine(e);
          if (!isUnknownOutcome(e) && !via.killed()) {
            unexpected.add(spec.id() + " via " + via.id() + ": " + detail);
          }
        } finally {
          inFlight.decrementAndGet(replica);
        }
        attempts.add(
            new Attempt(
                new Operation(spec.id(), via.id(), spec.table().toString(), file, outcome, detail),
                begin,
                System.nanoTime(),
                replica,
                sequence));
        if (outcome == Outcome.UNKNOWN && via.killed()) {
          failOver(deadlineNanos);
        }
      }
    }

    /** Moves to the next live replica; retries briefly, since a survivor may be busy. */
    private void failOver(long deadlineNanos) {
      for (int step = 1; step < cluster.size(); step++) {
        int next = (replica + step) % cluster.size();
        if (cluster.replica(next).killed()) {
          continue;
        }
        try {
          connect(next);
          return;
        } catch (RuntimeException e) {
          unexpected.add(spec.id() + ": fail-over to r" + next + " failed: " + e);
        }
      }
      throw new IllegalStateException(spec.id() + ": no live replica to fail over to");
    }

    void close() {
      if (catalog != null) {
        try {
          catalog.close();
        } catch (IOException | RuntimeException ignored) {
          // closing a client of a killed replica may fail
        }
        catalog = null;
      }
    }
  }

  /**
   * A timeout, a 5xx, or a transport error (Iceberg's HTTP client wraps IOExceptions in a plain
   * RESTException).
   */
  static boolean isUnknownOutcome(RuntimeException e) {
    return e instanceof CommitStateUnknownException
        || e instanceof ServiceFailureException
        || e instanceof ServiceUnavailableException
        || e instanceof UncheckedIOException
        || e.getClass() == RESTException.class;
  }

  private static String firstLine(Throwable e) {
    String m = String.valueOf(e.getMessage());
    int nl = m.indexOf('\n');
    return nl < 0 ? m : m.substring(0, nl);
  }

  /**
   * The final state of {@code tables}, read through {@code catalog}: every snapshot in each table's
   * metadata with the data files it added (read from its manifests).
   */
  static List<TableState> readStates(RESTCatalog catalog, Collection<TableIdentifier> tables) {
    List<TableState> states = new ArrayList<>();
    for (TableIdentifier id : tables) {
      states.add(readState(catalog.loadTable(id), id.toString()));
    }
    return states;
  }

  static TableState readState(Table table, String name) {
    List<SnapshotRecord> snapshots = new ArrayList<>();
    for (Snapshot s : table.snapshots()) {
      List<String> files = new ArrayList<>();
      Iterable<DataFile> added = s.addedDataFiles(table.io());
      for (DataFile f : added) {
        files.add(f.location());
      }
      if (added instanceof CloseableIterable<?> closeable) {
        try {
          closeable.close();
        } catch (IOException e) {
          throw new UncheckedIOException(e);
        }
      }
      snapshots.add(new SnapshotRecord(s.snapshotId(), s.parentId(), s.sequenceNumber(), files));
    }
    Snapshot current = table.currentSnapshot();
    return new TableState(name, current == null ? null : current.snapshotId(), snapshots);
  }

  /**
   * Writers {@code w0..w(n-1)} round-robin over {@code replicas}, writer i on table {@code
   * tableOf(i)}.
   */
  static List<WriterSpec> roundRobin(
      int writers, int replicas, java.util.function.IntFunction<TableIdentifier> tableOf) {
    List<WriterSpec> specs = new ArrayList<>();
    for (int i = 0; i < writers; i++) {
      specs.add(new WriterSpec("w" + i, i % replicas, tableOf.apply(i)));
    }
    return specs;
  }

  static Map<String, Long> ackedByReplica(Result result) {
    Map<String, Long> by = new java.util.TreeMap<>();
    for (Attempt a : result.attempts()) {
      if (a.operation().outcome() == Outcome.ACKED) {
        by.merge(a.operation().replica(), 1L, Long::sum);
      }
    }
    return by;
  }
}
