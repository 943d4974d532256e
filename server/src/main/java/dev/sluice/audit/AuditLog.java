package dev.sluice.audit;

import static java.util.Objects.requireNonNull;

import dev.sluice.store.AccessStore;
import dev.sluice.store.AuditEvent;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Records authorization decisions in the store. Requests hand events to a bounded queue and
 * a writer thread inserts them in batches, so a decision costs no database round trip on
 * the request path; when the queue is full, requests wait (an event is never dropped).
 * {@link #flush()} makes everything recorded so far readable, which the events endpoint
 * does before it reads.
 */
public final class AuditLog implements AutoCloseable {
  private static final Logger LOG = LoggerFactory.getLogger(AuditLog.class);
  private static final int BATCH = 500;

  private final AccessStore store;
  private final BlockingQueue<AuditEvent> queue = new ArrayBlockingQueue<>(50_000);
  private final Object writeLock = new Object();
  private final Thread writer;
  private volatile boolean running = true;

  public AuditLog(AccessStore store) {
    this.store = requireNonNull(store, "store");
    this.writer = new Thread(this::run, "sluice-audit");
    writer.setDaemon(true);
    writer.start();
  }

  public void record(AuditEvent event) {
    try {
      queue.put(event);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException("Interrupted while recording an audit event", e);
    }
  }

  /** Writes every queued event now. */
  public void flush() {
    drainAndWrite();
  }

  private void run() {
    while (running) {
      try {
        AuditEvent first = queue.poll(200, TimeUnit.MILLISECONDS);
        if (first != null) {
          List<AuditEvent> batch = new ArrayList<>();
          batch.add(first);
          queue.drainTo(batch, BATCH - 1);
          write(batch);
        }
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        return;
      } catch (RuntimeException e) {
        LOG.warn("Cannot write audit events yet; will retry: {}", e.getMessage());
        sleepQuietly();
      }
    }
  }

  private void drainAndWrite() {
    List<AuditEvent> batch = new ArrayList<>();
    queue.drainTo(batch);
    write(batch);
  }

  private void write(List<AuditEvent> batch) {
    if (batch.isEmpty()) {
      return;
    }
    synchronized (writeLock) {
      try {
        store.appendEvents(batch);
      } catch (RuntimeException e) {
        // Put them back in front of newer ones as far as capacity allows; the writer retries.
        List<AuditEvent> rest = new ArrayList<>();
        queue.drainTo(rest);
        queue.addAll(batch.subList(0, Math.min(batch.size(), queue.remainingCapacity())));
        rest.forEach(queue::offer);
        throw e;
      }
    }
  }

  private static void sleepQuietly() {
    try {
      Thread.sleep(500);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }

  @Override
  public void close() {
    running = false;
    writer.interrupt();
    try {
      writer.join(2000);
      drainAndWrite();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    } catch (RuntimeException e) {
      LOG.warn("Audit events not written at shutdown: {}", e.getMessage());
    }
  }
}
