package dev.sluice.e2e.durability;

import java.time.Instant;
import java.time.temporal.ChronoUnit;

/**
 * Converts between this process's {@code System.nanoTime()} and wall-clock microseconds since the
 * epoch, to compare the test's own timestamps with PostgreSQL's (it runs on this machine, on the
 * same clock). Fixed at class load: accurate to well under a millisecond over a test run.
 */
final class WallClock {
  private static final long NANO0 = System.nanoTime();
  private static final long WALL0_MICROS = ChronoUnit.MICROS.between(Instant.EPOCH, Instant.now());

  private WallClock() {}

  /** {@code wallMicros} (µs since the epoch) as a nanoTime. */
  static long toNanos(long wallMicros) {
    return NANO0 + (wallMicros - WALL0_MICROS) * 1_000;
  }

  /** Parks the calling thread until {@code nanos} (a nanoTime). */
  static void sleepUntil(long nanos) {
    for (long left = nanos - System.nanoTime(); left > 0; left = nanos - System.nanoTime()) {
      java.util.concurrent.locks.LockSupport.parkNanos(left);
    }
  }

  /** {@code nanos} (a nanoTime) as µs since the epoch. */
  static long toWallMicros(long nanos) {
    return WALL0_MICROS + (nanos - NANO0) / 1_000;
  }
}
