package dev.sluice.audit;

import java.util.concurrent.atomic.AtomicLong;

/**
 * Lets a warning through at most once per interval: a flood of the same trouble is one log line per
 * interval.
 */
final class RateLimitedWarning {
  private final long everyMillis;
  private final AtomicLong last = new AtomicLong();

  RateLimitedWarning(long everyMillis) {
    this.everyMillis = everyMillis;
  }

  void warn(Runnable log) {
    long now = System.currentTimeMillis();
    long previous = last.get();
    if (now - previous >= everyMillis && last.compareAndSet(previous, now)) {
      log.run();
    }
  }
}
