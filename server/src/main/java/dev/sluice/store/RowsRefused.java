package dev.sluice.store;

/**
 * Store outcome: the database is up but refused the rows themselves (a value too long, a
 * constraint): writing them again will fail again, unlike {@link StoreUnavailable}.
 */
public class RowsRefused extends RuntimeException {
  public RowsRefused(String message, Throwable cause) {
    super(message, cause);
  }
}
