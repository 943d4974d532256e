package dev.sluice.audit;

import static java.util.Objects.requireNonNull;

import dev.sluice.store.AccessStore;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import java.time.Clock;
import java.time.Duration;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Deletes audit events older than {@code audit.retention}, in the background: shortly after start
 * and then every hour, in batches of {@value #BATCH} rows, so pruning never holds one long
 * transaction over the audit table. Replicas each prune; deleting what another already deleted
 * changes nothing. A store that is down is retried at the next round.
 */
public final class AuditRetention implements AutoCloseable {
  private static final Logger LOG = LoggerFactory.getLogger(AuditRetention.class);
  static final int BATCH = 10_000;
  private static final Duration FIRST = Duration.ofSeconds(10);
  private static final Duration EVERY = Duration.ofHours(1);

  private final AccessStore store;
  private final Duration retention;
  private final Clock clock;
  private final Counter pruned;
  private ScheduledExecutorService timer;

  public AuditRetention(AccessStore store, Duration retention, Clock clock, MeterRegistry metrics) {
    this.store = requireNonNull(store, "store");
    this.retention = requireNonNull(retention, "retention");
    this.clock = requireNonNull(clock, "clock");
    this.pruned =
        Counter.builder("sluice.audit.pruned")
            .description("Audit events deleted because they were older than audit.retention")
            .register(requireNonNull(metrics, "metrics"));
  }

  /** Starts the background rounds. */
  public AuditRetention start() {
    timer =
        Executors.newSingleThreadScheduledExecutor(
            r -> {
              Thread t = new Thread(r, "sluice-audit-retention");
              t.setDaemon(true);
              return t;
            });
    timer.scheduleWithFixedDelay(
        this::round, FIRST.toMillis(), EVERY.toMillis(), TimeUnit.MILLISECONDS);
    return this;
  }

  private void round() {
    try {
      long n = pruneOnce();
      if (n > 0) {
        LOG.info("Deleted {} audit events older than audit.retention ({})", n, retention);
      }
    } catch (RuntimeException e) {
      LOG.warn("Could not delete old audit events; will retry in {}: {}", EVERY, e.toString());
    }
  }

  /** Deletes every event older than the retention, batch by batch; returns how many. */
  public long pruneOnce() {
    long cutoff = clock.millis() - retention.toMillis();
    long total = 0;
    while (true) {
      int n = store.deleteEventsBefore(cutoff, BATCH);
      total += n;
      pruned.increment(n);
      if (n < BATCH) {
        return total;
      }
    }
  }

  @Override
  public void close() {
    if (timer != null) {
      timer.shutdownNow();
    }
  }
}
