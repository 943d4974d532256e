package dev.sluice.store;

/** Store outcome: see {@link Store}. */
public class NotEmpty extends RuntimeException {
  public NotEmpty(String message) {
    super(message);
  }

  public NotEmpty(String message, Throwable cause) {
    super(message, cause);
  }
}
