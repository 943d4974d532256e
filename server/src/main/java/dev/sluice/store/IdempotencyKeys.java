package dev.sluice.store;

import java.util.Optional;

/**
 * Stored {@code Idempotency-Key}s (see {@link IdempotencyClaim} for how a mutation records one).
 */
public interface IdempotencyKeys {
  Optional<IdempotencyRecord> find(String key);

  /**
   * Records the answer of {@code claim}'s request: completes the row its mutation wrote, or, when
   * it wrote none (nothing changed, or it failed before changing anything), inserts a completed
   * one. False when another request holds the key.
   */
  boolean answer(IdempotencyClaim claim, int status, String body);

  /** Removes the row {@code claim}'s request wrote, if any (its change did not stand). */
  void forget(IdempotencyClaim claim);

  /** Removes {@code key} if it expired at {@code nowMs}; true if a row was removed. */
  boolean removeIfExpired(String key, long nowMs);

  /** Removes every key expired at {@code nowMs}; returns how many. */
  int sweep(long nowMs);
}
