package dev.sluice.client;

/**
 * Sluice could not answer a request: it refused (an HTTP status), answered something unusable, or
 * was unreachable ({@link #status()} 0). The message says which request failed and why; it never
 * carries a secret, a token or a credential.
 */
public final class SluiceException extends Exception {
  private static final long serialVersionUID = 1L;

  private final int status;

  public SluiceException(int status, String message) {
    super(message);
    this.status = status;
  }

  public SluiceException(int status, String message, Throwable cause) {
    super(message, cause);
    this.status = status;
  }

  /** The HTTP status Sluice answered with; 0 when there was no usable HTTP answer. */
  public int status() {
    return status;
  }

  /** Sluice refused the caller: 401, 403 or 404 (no such table, or not visible to the caller). */
  public boolean isRefusal() {
    return status == 401 || status == 403 || status == 404;
  }
}
