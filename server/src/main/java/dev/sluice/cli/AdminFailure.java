package dev.sluice.cli;

/** A failed admin operation whose message is fit to show the user as is (never holds a secret). */
class AdminFailure extends RuntimeException {
  AdminFailure(String message) {
    super(message);
  }

  AdminFailure(String message, Throwable cause) {
    super(message, cause);
  }
}
