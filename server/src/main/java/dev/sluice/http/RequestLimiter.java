package dev.sluice.http;

import com.github.benmanes.caffeine.cache.Cache;
import com.github.benmanes.caffeine.cache.Caffeine;
import java.time.Duration;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Semaphore;

/**
 * How many requests are handled at once, in all and per principal: a request past either limit is
 * answered 503 with {@code Retry-After} at once, so no client, with or without a token, can take
 * every thread, and no principal can take every slot from the others. Optionally, how many requests
 * a principal may make per second (a token bucket; 429 beyond).
 */
final class RequestLimiter {
  private final Semaphore all;
  private final int perPrincipal;
  private final ConcurrentHashMap<String, Integer> byPrincipal = new ConcurrentHashMap<>();

  private final double ratePerNano;
  private final double burst;
  private final Cache<String, Bucket> buckets =
      Caffeine.newBuilder().maximumSize(100_000).expireAfterAccess(Duration.ofMinutes(10)).build();

  /** Tokens left and when they were counted; guarded by its own monitor. */
  private static final class Bucket {
    double tokens;
    long at;

    Bucket(double tokens, long at) {
      this.tokens = tokens;
      this.at = at;
    }
  }

  RequestLimiter(int maxConcurrent, int maxPerPrincipal) {
    this(maxConcurrent, maxPerPrincipal, 0, 0);
  }

  /** With {@code perSecond} requests per principal and a bucket of {@code burst} (0: no rate). */
  RequestLimiter(int maxConcurrent, int maxPerPrincipal, int perSecond, int burst) {
    this.all = new Semaphore(maxConcurrent);
    this.perPrincipal = maxPerPrincipal;
    this.ratePerNano = perSecond / 1e9;
    this.burst = burst;
  }

  /** Whether {@code principal} may make one more request now, under its rate. */
  boolean withinRate(String principal) {
    if (ratePerNano == 0) {
      return true;
    }
    long now = System.nanoTime();
    Bucket bucket = buckets.get(principal, p -> new Bucket(burst, now));
    synchronized (bucket) {
      bucket.tokens = Math.min(burst, bucket.tokens + (now - bucket.at) * ratePerNano);
      bucket.at = now;
      if (bucket.tokens < 1) {
        return false;
      }
      bucket.tokens -= 1;
      return true;
    }
  }

  /** A slot in all, or false when every slot is taken. */
  boolean tryEnter() {
    return all.tryAcquire();
  }

  void leave() {
    all.release();
  }

  /** A slot for {@code principal}, or false when it already holds its share. */
  boolean tryEnter(String principal) {
    boolean[] entered = {false};
    // compute is atomic per key: counting and removal at zero cannot interleave.
    byPrincipal.compute(
        principal,
        (p, held) -> {
          int now = held == null ? 0 : held;
          if (now >= perPrincipal) {
            return held;
          }
          entered[0] = true;
          return now + 1;
        });
    return entered[0];
  }

  void leave(String principal) {
    // Entries at zero are removed so the map holds only principals with requests in flight.
    byPrincipal.computeIfPresent(principal, (p, held) -> held <= 1 ? null : held - 1);
  }
}
