package dev.sluice.store;

/** The database failed while committing: the change may or may not have been applied. */
public class CommitOutcomeUnknown extends RuntimeException {
  public CommitOutcomeUnknown(String message, Throwable cause) {
    super(message, cause);
  }
}
