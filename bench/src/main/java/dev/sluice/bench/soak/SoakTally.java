package dev.sluice.bench.soak;

import java.util.Collections;
import java.util.EnumMap;
import java.util.LinkedHashSet;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.atomic.AtomicLong;
import org.HdrHistogram.Histogram;
import org.HdrHistogram.Recorder;

/**
 * What the soak's clients record, shared by all of them: latencies per kind (HdrHistogram {@link
 * Recorder}s, so that the sampler takes each interval's histogram without stopping anyone), errors
 * per kind, a few error messages, and the writers' verified and lost appends.
 */
final class SoakTally {
  static final long MAX_TRACKED_MICROS = 120_000_000L;

  private final Map<SoakKind, Recorder> latencies = new EnumMap<>(SoakKind.class);
  private final Map<SoakKind, AtomicLong> errors = new EnumMap<>(SoakKind.class);
  private final Set<String> errorSamples = Collections.synchronizedSet(new LinkedHashSet<>());
  private final AtomicLong verified = new AtomicLong();
  private final AtomicLong lost = new AtomicLong();

  SoakTally() {
    for (SoakKind kind : SoakKind.values()) {
      latencies.put(kind, new Recorder(MAX_TRACKED_MICROS, 3));
      errors.put(kind, new AtomicLong());
    }
  }

  void done(SoakKind kind, long micros) {
    latencies.get(kind).recordValue(Math.min(micros, MAX_TRACKED_MICROS));
  }

  void failed(SoakKind kind, Exception e) {
    errors.get(kind).incrementAndGet();
    if (errorSamples.size() < 8) {
      errorSamples.add(kind.label() + ": " + e.getClass().getSimpleName() + ": " + e.getMessage());
    }
  }

  void verified(long acked, long lostAppends) {
    verified.addAndGet(acked);
    lost.addAndGet(lostAppends);
  }

  /** The latencies recorded since the last call, per kind. */
  Map<SoakKind, Histogram> takeInterval() {
    Map<SoakKind, Histogram> taken = new EnumMap<>(SoakKind.class);
    latencies.forEach((kind, recorder) -> taken.put(kind, recorder.getIntervalHistogram()));
    return taken;
  }

  /** Errors so far, per kind. */
  Map<SoakKind, Long> errors() {
    Map<SoakKind, Long> now = new EnumMap<>(SoakKind.class);
    errors.forEach((kind, count) -> now.put(kind, count.get()));
    return now;
  }

  Set<String> errorSamples() {
    synchronized (errorSamples) {
      return Set.copyOf(errorSamples);
    }
  }

  long verifiedAppends() {
    return verified.get();
  }

  long lostAppends() {
    return lost.get();
  }
}
