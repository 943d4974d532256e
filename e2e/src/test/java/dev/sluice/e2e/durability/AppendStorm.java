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
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
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

  /**
   * How one writer ended: it ran to the storm's deadline (was not interrupted, did not stop early)
   * after {@code attempts} appends, {@code acked} of them acknowledged, {@code refused} refused
   * (409).
   */
  record WriterEnd(String id, long attempts, long acked, long refused, boolean ranToDeadline) {}

  /**
   * What a storm did. {@code unexpected}: errors that are neither 409 nor an unknown outcome (on a
   * killed replica anything is an unknown outcome). Every writer ran to the end and had at least
   * one definite answer (200 or 409), or {@link #run} threw; whether each must also have had an
   * append acknowledged depends on the contention, so that is the caller's to check ({@code
   * writers}).
   */
  record Result(
      List<Attempt> attempts, double seconds, List<String> unexpected, List<WriterEnd> writers) {
    List<Operation> operations() {
      return attempts.stream().map(Attempt::operation).toList();
    }

    /** The attempts left without a definite answer (timeout, 5xx, transport error). */
    List<Attempt> unknown() {
      return attempts.stream().filter(a -> a.operation().outcome() == Outcome.UNKNOWN).toList();
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

    /** Per writer, acknowledged/attempted appends, e.g. {@code w0=12/40 w1=9/38}. */
    String byWriter() {
      StringBuilder b = new StringBuilder();
      for (WriterEnd w : writers) {
        b.append(b.isEmpty() ? "" : " ").append(w.id()).append('=');
        b.append(w.acked()).append('/').append(w.attempts());
      }
      return b.toString();
    }

    double ackedPerSecond() {
      return count(Outcome.ACKED) / seconds;
    }

    /** Attempts left without a definite answer that overlap [{@code from}, {@code to}]. */
    long failedBetween(long fromNanos, long toNanos) {
      return unknown().stream()
          .filter(a -> a.endNanos() >= fromNanos && a.startNanos() <= toNanos)
          .count();
    }

    /**
     * Seconds from {@code nanos} to the end of the first append acknowledged after it; -1 if none.
     */
    double firstAckAfter(long nanos) {
      return attempts.stream()
          .filter(a -> a.operation().outcome() == Outcome.ACKED && a.startNanos() >= nanos)
          .mapToDouble(a -> (a.endNanos() - nanos) / 1e9)
          .min()
          .orElse(-1);
    }

    /** The attempts left without a definite answer, by {@link #failureKind}. */
    Map<String, Long> failureKinds() {
      Map<String, Long> by = new java.util.TreeMap<>();
      for (Attempt a : unknown()) {
        by.merge(failureKind(a.operation().detail()), 1L, Long::sum);
      }
      return by;
    }
  }

  /** Hands the running storm to a hook (e.g. to kill a replica mid-storm). */
  interface Control {
    /** Commits in flight through {@code replica} right now. */
    int inFlight(int replica);

    long startNanos();

    /** Appends so far left without a definite answer that ended at or after {@code nanos}. */
    long unknownSince(long nanos);
  }

  private final ReplicaCluster cluster;
  private final List<WriterSpec> writers;
  private final Duration duration;

  AppendStorm(ReplicaCluster cluster, List<WriterSpec> writers, Duration duration) {
    this.cluster = cluster;
    this.writers = List.copyOf(writers);
    this.duration = duration;
  }

  /**
   * Runs the storm; {@code during} runs on the calling thread while the writers write. Throws an
   * {@link AssertionError} if a writer failed (with its exception as the cause), did not run to the
   * deadline, or never had a definite answer (200 or 409): every writer must make progress, though
   * under contention it may lose every race.
   */
  Result run(Consumer<Control> during) throws InterruptedException {
    ConcurrentLinkedQueue<Attempt> attempts = new ConcurrentLinkedQueue<>();
    ConcurrentLinkedQueue<String> unexpected = new ConcurrentLinkedQueue<>();
    AtomicIntegerArray inFlight = new AtomicIntegerArray(cluster.size());
    CountDownLatch ready = new CountDownLatch(writers.size());
    CountDownLatch go = new CountDownLatch(1);
    long[] start = new long[1];
    ExecutorService pool =
        Executors.newFixedThreadPool(
            writers.size(),
            r -> {
              Thread t = new Thread(r);
              t.setDaemon(true);
              return t;
            });
    try {
      List<Future<WriterEnd>> futures = new ArrayList<>();
      for (WriterSpec spec : writers) {
        futures.add(
            pool.submit(
                () -> {
                  Thread.currentThread().setName("dur-writer-" + spec.id());
                  WriterLoop loop = new WriterLoop(spec, attempts, unexpected, inFlight);
                  try {
                    try {
                      loop.connect(spec.replica());
                    } finally {
                      ready.countDown();
                    }
                    go.await();
                    return loop.run(start[0] + duration.toNanos());
                  } finally {
                    loop.close();
                  }
                }));
      }
      ready.await();
      for (int i = 0; i < futures.size(); i++) {
        if (futures.get(i).isDone()) { // only a failed connect ends a writer before "go"
          go.countDown();
          outcome(writers.get(i), futures.get(i), 0);
        }
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

            @Override
            public long unknownSince(long nanos) {
              return attempts.stream()
                  .filter(a -> a.operation().outcome() == Outcome.UNKNOWN)
                  .filter(a -> a.endNanos() >= nanos)
                  .count();
            }
          });
      long joinBy = start[0] + duration.toNanos() + TimeUnit.SECONDS.toNanos(60);
      List<WriterEnd> ends = new ArrayList<>();
      for (int i = 0; i < futures.size(); i++) {
        ends.add(outcome(writers.get(i), futures.get(i), joinBy - System.nanoTime()));
      }
      double seconds = (System.nanoTime() - start[0]) / 1e9;
      List<Attempt> all = new ArrayList<>(attempts);
      all.sort((a, b) -> Long.compare(a.startNanos(), b.startNanos()));
      return new Result(
          Collections.unmodifiableList(all), seconds, List.copyOf(unexpected), List.copyOf(ends));
    } finally {
      go.countDown();
      pool.shutdownNow();
    }
  }

  /**
   * The writer's end, waiting at most {@code waitNanos}: an {@link AssertionError} if it failed, is
   * still running, stopped before the deadline or never had a definite answer.
   */
  private static WriterEnd outcome(WriterSpec spec, Future<WriterEnd> future, long waitNanos)
      throws InterruptedException {
    WriterEnd end;
    try {
      end = future.get(Math.max(0, waitNanos), TimeUnit.NANOSECONDS);
    } catch (ExecutionException e) {
      throw new AssertionError("writer " + spec.id() + " failed: " + e.getCause(), e.getCause());
    } catch (TimeoutException e) {
      throw new AssertionError("writer " + spec.id() + " still running 60 s after the storm's end");
    }
    if (!end.ranToDeadline()) {
      throw new AssertionError("writer " + spec.id() + " stopped before the deadline: " + end);
    }
    if (end.acked() + end.refused() == 0) {
      throw new AssertionError("writer " + spec.id() + " never had a definite answer: " + end);
    }
    return end;
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

    WriterEnd run(long deadlineNanos) {
      long count = 0;
      long acked = 0;
      long refused = 0;
      while (System.nanoTime() < deadlineNanos && !Thread.currentThread().isInterrupted()) {
        count++;
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
        } catch (CommitFailedException e) {
          outcome = Outcome.REFUSED;
          refused++;
        } catch (RuntimeException e) {
          // Anything else leaves the outcome open: counted at most once by the checker. Only
          // timeouts, 5xx and transport errors are expected (and, through a killed replica,
          // anything).
          outcome = Outcome.UNKNOWN;
          detail = e.getClass().getSimpleName() + ": " + firstLine(e);
          if (!isUnknownOutcome(e) && !via.killed()) {
            unexpected.add(spec.id() + " via " + via.id() + ": " + detail);
          }
        } catch (org.apache.hadoop.fs.FSError e) {
          // The client's own manifest write failed (a test filled the warehouse it shares with
          // the server): nothing was sent, so nothing can have been committed.
          outcome = Outcome.UNKNOWN;
          detail = "client-side " + e.getClass().getSimpleName() + ": " + firstLine(e);
          if (!String.valueOf(e.getMessage()).contains("No space left on device")) {
            unexpected.add(spec.id() + " via " + via.id() + ": " + detail);
          }
        } finally {
          inFlight.decrementAndGet(replica);
        }
        long end = System.nanoTime();
        if (outcome == Outcome.ACKED) {
          acked++;
          // The committed metadata, as the commit's response carried it (outside the catch: a
          // failure here is the writer's, not the commit's, and fails the storm).
          sequence = table.currentSnapshot().sequenceNumber();
        }
        attempts.add(
            new Attempt(
                new Operation(spec.id(), via.id(), spec.table().toString(), file, outcome, detail),
                begin,
                end,
                replica,
                sequence));
        if (outcome == Outcome.UNKNOWN && via.killed() && !failOver()) {
          // No replica left (a single embedded server killed): nothing to write to until the
          // storm's end, when the test restarts it.
          for (long left = deadlineNanos - System.nanoTime();
              left > 0;
              left = deadlineNanos - System.nanoTime()) {
            java.util.concurrent.locks.LockSupport.parkNanos(left);
          }
          break;
        }
      }
      return new WriterEnd(spec.id(), count, acked, refused, System.nanoTime() >= deadlineNanos);
    }

    /**
     * Moves to the next live replica; false if the cluster has no other (one server). Throws if
     * there are others and none takes the writer.
     */
    private boolean failOver() {
      if (cluster.size() == 1) {
        return false;
      }
      for (int step = 1; step < cluster.size(); step++) {
        int next = (replica + step) % cluster.size();
        if (cluster.replica(next).killed()) {
          continue;
        }
        try {
          connect(next);
          return true;
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

  /**
   * What a failed attempt's detail says the client got: its exception type and the HTTP status it
   * names, e.g. {@code CommitStateUnknownException/503}. Iceberg's client raises {@code
   * ServiceUnavailableException} for a 503 and nothing else, with a message that leaves the status
   * out (a load before the commit, say).
   */
  static String failureKind(String detail) {
    String type = detail == null ? "?" : detail.substring(0, Math.max(0, detail.indexOf(':')));
    if (type.equals(ServiceUnavailableException.class.getSimpleName())) {
      return type + "/503";
    }
    java.util.regex.Matcher m =
        java.util.regex.Pattern.compile("Service failed: (\\d{3})").matcher(String.valueOf(detail));
    return type + (m.find() ? "/" + m.group(1) : "");
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
