package dev.sluice.store;

/**
 * Another request holds this {@code Idempotency-Key}: the mutation that tried to record it was
 * rolled back. The HTTP layer answers from the holder's record instead.
 */
public final class IdempotencyKeyTaken extends RuntimeException {
  public IdempotencyKeyTaken(String key) {
    super("Idempotency-Key " + key + " is held by another request", null, false, false);
  }
}
