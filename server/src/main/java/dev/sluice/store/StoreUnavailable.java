package dev.sluice.store;

/** Store outcome: see {@link Store}. */
public class StoreUnavailable extends RuntimeException {
  public StoreUnavailable(String message) {
    super(message);
  }

  public StoreUnavailable(String message, Throwable cause) {
    super(message, cause);
  }
}
