package dev.sluice.store;

/** Store outcome: see {@link Store}. */
public class AlreadyExists extends RuntimeException {
  public AlreadyExists(String message) {
    super(message);
  }

  public AlreadyExists(String message, Throwable cause) {
    super(message, cause);
  }
}
