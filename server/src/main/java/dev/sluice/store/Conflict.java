package dev.sluice.store;

/** Store outcome: see {@link Store}. */
public class Conflict extends RuntimeException {
  public Conflict(String message) {
    super(message);
  }

  public Conflict(String message, Throwable cause) {
    super(message, cause);
  }
}
