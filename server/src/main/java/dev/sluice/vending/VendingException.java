package dev.sluice.vending;

/**
 * Vending failed: the provider (STS, ...) refused or could not be reached. The message names the
 * catalog and the provider's HTTP status, never a secret.
 */
public class VendingException extends RuntimeException {
  private final int providerStatus;

  public VendingException(String message, int providerStatus, Throwable cause) {
    super(message, cause);
    this.providerStatus = providerStatus;
  }

  /** The provider's HTTP status, or 0 when it could not be reached. */
  public int providerStatus() {
    return providerStatus;
  }
}
