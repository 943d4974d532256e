package dev.sluice.http;

import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Semaphore;

/**
 * How many requests are handled at once, in all and per principal: a request past either limit is
 * answered 503 with {@code Retry-After} at once, so no client, with or without a token, can take
 * every thread, and no principal can take every slot from the others.
 */
final class RequestLimiter {
  private final Semaphore all;
  private final int perPrincipal;
  private final ConcurrentHashMap<String, Integer> byPrincipal = new ConcurrentHashMap<>();

  RequestLimiter(int maxConcurrent, int maxPerPrincipal) {
    this.all = new Semaphore(maxConcurrent);
    this.perPrincipal = maxPerPrincipal;
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
