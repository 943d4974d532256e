package dev.sluice.audit;

import static java.util.Objects.requireNonNull;

import dev.sluice.store.AccessStore;
import dev.sluice.store.AuditEvent;
import dev.sluice.store.AuditedRequest;
import dev.sluice.store.StoreUnavailable;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Deque;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Records authorization decisions in the store, and never stops doing so whatever the input.
 * Requests hand events to a bounded queue, fitted to the columns first ({@link AuditFields}), and
 * one writer thread inserts them in batches, so a decision costs no database round trip on the
 * request path and a request never waits: when the queue is full the event is dropped and counted
 * ({@code sluice.audit.dropped}, with a WARN at most every 10 s).
 *
 * <p>The writer wakes every {@value #GATHER_MS} ms and writes what has queued since. Identical
 * allowed decisions (same principal, roles, action, catalog, securable and request origin and
 * outcome) in one write are stored as one event with their count and first and last time: a client
 * loading one table thousands of times a second costs one row per write, not one per load, and who
 * did what, when, stays answerable to within that span. Denials are never merged. Measured: a row
 * per load was a third of a table load's CPU.
 *
 * <p>Two failures are told apart. A batch the database refuses ({@link
 * dev.sluice.store.RowsRefused} or any other error but an outage) is split in halves until the
 * refused event stands alone; the others are written, and that one is stored in a safe form naming
 * the reason ({@code sluice.audit.refused}), or, refused even so, given up with an ERROR ({@code
 * sluice.audit.lost}): one bad event never blocks the rest. A database that is down ({@link
 * StoreUnavailable}) keeps the batch in hand and is retried every {@value #RETRY_MS} ms, while new
 * events queue as far as there is room.
 */
public final class AuditLog implements AutoCloseable {
  private static final Logger LOG = LoggerFactory.getLogger(AuditLog.class);
  public static final int CAPACITY = 50_000;

  /** How long {@link #flush()} waits for the writer at most. */
  public static final Duration FLUSH_WAIT = Duration.ofSeconds(2);

  private static final int BATCH = 10_000;

  /**
   * How often the writer writes; what queues in between is one batch. Every write is a database
   * commit (on H2, a store of the file's changed pages): at 20 ms the writer took 24 % of the
   * server's CPU samples under a load of hot table loads, at 100 ms 13 % (issue 42, JFR). The queue
   * holds 50,000 events, several times what 100 ms of the heaviest load brings.
   */
  private static final long GATHER_MS = 100;

  private static final long RETRY_MS = 500;
  private static final long WARN_EVERY_MS = 10_000;

  /** Rows to write; {@code refusal} is set when they are the safe form of a refused event. */
  private record Chunk(List<AuditEvent> rows, String refusal) {}

  private final AccessStore store;
  private final BlockingQueue<AuditEvent> queue;
  private final Duration flushWait;
  private final Counter dropped;
  private final Counter refused;
  private final Counter lost;
  private final Counter streamFailed;
  private final AuditStream stream;
  private final RateLimitedWarning streamWarning = new RateLimitedWarning(WARN_EVERY_MS);
  private final RateLimitedWarning dropWarning = new RateLimitedWarning(WARN_EVERY_MS);
  private final RateLimitedWarning outageWarning = new RateLimitedWarning(WARN_EVERY_MS);
  private final Object progress = new Object();

  /** Events queued so far. */
  private final AtomicLong accepted = new AtomicLong();

  /**
   * Events taken from the queue and done with (written, stored in safe form or given up); under
   * {@link #progress}.
   */
  private long handled;

  private boolean wakeUp;
  private volatile boolean running = true;

  /**
   * The writer's batch in hand: survives an outage, so nothing taken from the queue is lost. Writer
   * thread only.
   */
  private final Deque<Chunk> pending = new ArrayDeque<>();

  private int pendingEvents;
  private final Thread writer;

  public AuditLog(AccessStore store, MeterRegistry metrics) {
    this(store, metrics, CAPACITY, FLUSH_WAIT);
  }

  public AuditLog(AccessStore store, MeterRegistry metrics, int capacity, Duration flushWait) {
    this(store, metrics, capacity, flushWait, AuditStream.NONE);
  }

  /** As above, each stored batch also passed to {@code stream} ({@code audit.stream}). */
  public AuditLog(
      AccessStore store,
      MeterRegistry metrics,
      int capacity,
      Duration flushWait,
      AuditStream stream) {
    this.store = requireNonNull(store, "store");
    this.stream = requireNonNull(stream, "stream");
    requireNonNull(metrics, "metrics");
    this.queue = new ArrayBlockingQueue<>(capacity);
    this.flushWait = requireNonNull(flushWait, "flushWait");
    this.dropped =
        Counter.builder("sluice.audit.dropped")
            .description("Audit events dropped because the queue was full")
            .register(metrics);
    this.refused =
        Counter.builder("sluice.audit.refused")
            .description("Audit events the database refused, stored in a safe form")
            .register(metrics);
    this.lost =
        Counter.builder("sluice.audit.lost")
            .description("Audit events the database refused even in a safe form")
            .register(metrics);
    this.streamFailed =
        Counter.builder("sluice.audit.stream.failed")
            .description("Stored audit events the audit stream (audit.stream) could not take")
            .register(metrics);
    Gauge.builder("sluice.audit.queue.depth", queue, Collection::size)
        .description("Audit events waiting to be written")
        .register(metrics);
    this.writer = new Thread(this::run, "sluice-audit");
    writer.setDaemon(true);
    writer.start();
  }

  /**
   * The trail of one HTTP request from {@code origin}: its events are recorded here once it is
   * answered ({@link RequestAudit}).
   */
  public RequestAudit begin(String requestId, AuditedRequest origin) {
    return new RequestAudit(this, requestId, origin);
  }

  /**
   * Queues {@code event}; never blocks: when the queue is full the event is dropped and counted.
   */
  public void record(AuditEvent event) {
    if (queue.offer(AuditFields.fit(event))) {
      accepted.incrementAndGet();
      return;
    }
    dropped.increment();
    long total = (long) dropped.count();
    dropWarning.warn(
        () ->
            LOG.warn(
                "Audit queue full ({} events waiting): events are being dropped, {} so far (metric sluice.audit.dropped)",
                queue.size(),
                total));
  }

  /**
   * Waits until every event recorded before this call is written, at most the flush wait (while the
   * database is down it cannot be). Never throws; false when it gave up waiting.
   */
  public boolean flush() {
    long target = accepted.get();
    long deadline = System.nanoTime() + flushWait.toNanos();
    synchronized (progress) {
      wakeUp = true;
      progress.notifyAll();
      while (handled < target) {
        long left = deadline - System.nanoTime();
        if (left <= 0 || !writer.isAlive()) {
          return false;
        }
        try {
          TimeUnit.NANOSECONDS.timedWait(progress, left);
        } catch (InterruptedException e) {
          Thread.currentThread().interrupt();
          return false;
        }
      }
      return true;
    }
  }

  private void run() {
    while (running) {
      awaitWork(GATHER_MS);
      try {
        writeQueued();
      } catch (StoreUnavailable e) {
        outageWarning.warn(
            () ->
                LOG.warn(
                    "Cannot write audit events yet ({} in hand, {} queued); will retry: {}",
                    pendingEvents,
                    queue.size(),
                    e.getMessage()));
        awaitWork(RETRY_MS);
      } catch (RuntimeException e) {
        // Not expected (writeAll handles refusals): log and go on, never let the writer die.
        LOG.error("Audit writer failure; continuing", e);
      }
    }
    try {
      writeQueued();
    } catch (RuntimeException e) {
      LOG.warn(
          "{} audit events not written at shutdown: {}",
          pendingEvents + queue.size(),
          e.getMessage());
    }
  }

  /** Sleeps up to {@code millis}, or until a flush or close wakes the writer. */
  private void awaitWork(long millis) {
    synchronized (progress) {
      if (!wakeUp && running) {
        try {
          progress.wait(millis);
        } catch (InterruptedException e) {
          Thread.currentThread().interrupt();
          running = false;
        }
      }
      wakeUp = false;
    }
  }

  /**
   * Writes the batch in hand, then everything queued, batch by batch; an outage leaves the rest in
   * hand.
   */
  private void writeQueued() {
    while (true) {
      if (pending.isEmpty()) {
        List<AuditEvent> batch = new ArrayList<>();
        queue.drainTo(batch, BATCH);
        if (batch.isEmpty()) {
          return;
        }
        pending.push(new Chunk(coalesce(batch), null));
        pendingEvents = batch.size();
      }
      writePending();
      synchronized (progress) {
        handled += pendingEvents;
        pendingEvents = 0;
        progress.notifyAll();
      }
    }
  }

  /**
   * Writes {@link #pending} to the end, splitting what the database refuses; throws only on an
   * outage.
   */
  private void writePending() {
    while (!pending.isEmpty()) {
      Chunk chunk = pending.peek();
      try {
        store.appendEvents(chunk.rows());
        pending.pop();
        toStream(chunk.rows());
        if (chunk.refusal() != null) {
          refused.increment();
          LOG.warn(
              "An audit event was refused by the database ({}); stored in safe form: {}",
              chunk.refusal(),
              chunk.rows().get(0));
        }
      } catch (StoreUnavailable e) {
        throw e; // the database is down, not refusing: keep everything in hand and retry
      } catch (RuntimeException e) {
        pending.pop();
        List<AuditEvent> rows = chunk.rows();
        if (chunk.refusal() != null) {
          lost.increment();
          LOG.error(
              "An audit event was refused by the database even in safe form; giving it up: {}",
              rows.get(0),
              e);
        } else if (rows.size() == 1) {
          String reason = reason(e);
          pending.push(new Chunk(List.of(AuditFields.safeForm(rows.get(0), reason)), reason));
        } else {
          int half = rows.size() / 2;
          pending.push(new Chunk(rows.subList(half, rows.size()), null));
          pending.push(new Chunk(rows.subList(0, half), null));
        }
      }
    }
  }

  /** Passes stored rows to the stream; a stream that fails never stops the database's trail. */
  private void toStream(List<AuditEvent> rows) {
    try {
      stream.write(rows);
    } catch (RuntimeException e) {
      streamFailed.increment(rows.size());
      streamWarning.warn(
          () ->
              LOG.warn(
                  "The audit stream could not take {} stored events (metric"
                      + " sluice.audit.stream.failed): {}",
                  rows.size(),
                  e.toString()));
    }
  }

  /**
   * Why the event was not written: the SQL state or the exception's class, never the refused value.
   */
  static String reason(RuntimeException e) {
    if (e.getCause() instanceof java.sql.SQLException sql && sql.getSQLState() != null) {
      return "refused, SQLState " + sql.getSQLState();
    }
    return "refused, " + e.getClass().getSimpleName();
  }

  private record DecisionKey(
      String principal,
      String identity,
      String actor,
      List<String> roles,
      String action,
      String catalog,
      String securable,
      String detail,
      AuditedRequest request) {}

  /** {@code batch} with identical allowed decisions folded into the first of them, order kept. */
  static List<AuditEvent> coalesce(List<AuditEvent> batch) {
    List<AuditEvent> out = new ArrayList<>(batch.size());
    Map<DecisionKey, Integer> first = new HashMap<>();
    for (AuditEvent e : batch) {
      if (!e.allowed()) {
        out.add(e);
        continue;
      }
      DecisionKey key =
          new DecisionKey(
              e.principal(),
              e.principalIdentity(),
              e.actor(),
              e.roles(),
              e.action(),
              e.catalog(),
              e.securable(),
              e.detail(),
              // Not the trace id: traced loads fold like others, and keep the first one's, as
              // they keep its request id.
              e.request().withoutTrace());
      Integer at = first.putIfAbsent(key, out.size());
      if (at == null) {
        out.add(e);
      } else {
        out.set(at, out.get(at).plus(e));
      }
    }
    return out;
  }

  @Override
  public void close() {
    synchronized (progress) {
      running = false;
      progress.notifyAll();
    }
    try {
      writer.join(5_000);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
    stream.close();
  }
}
