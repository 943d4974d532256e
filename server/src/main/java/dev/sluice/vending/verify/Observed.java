package dev.sluice.vending.verify;

/**
 * What one probe request observed at the store: allowed (it succeeded), refused (401/403), missing
 * (404: the request was authorized, or the bucket does not exist), or an error that proves neither.
 * Holds the store's status and error code, never a message that could carry a credential.
 */
public record Observed(Kind kind, int status, String code, String detail) {
  public enum Kind {
    ALLOWED,
    REFUSED,
    MISSING,
    ERROR,
    /** The store does not implement the operation (an emulator): proves nothing either way. */
    UNSUPPORTED
  }

  public static Observed allowed() {
    return new Observed(Kind.ALLOWED, 0, null, null);
  }

  public static Observed refused(int status, String code) {
    return new Observed(Kind.REFUSED, status, code, null);
  }

  public static Observed missing(int status, String code) {
    return new Observed(Kind.MISSING, status, code, null);
  }

  /** A failure that is not the store's allow or refuse ({@code detail}: what failed, no secret). */
  public static Observed error(int status, String code, String detail) {
    return new Observed(Kind.ERROR, status, code, detail);
  }

  /** The store does not implement this operation ({@code why}: which, and how that is known). */
  public static Observed unsupported(int status, String code, String why) {
    return new Observed(Kind.UNSUPPORTED, status, code, why);
  }

  /** {@code allowed}, {@code refused (403 AccessDenied)}, ... for the answer's table. */
  public String describe() {
    StringBuilder out = new StringBuilder(kind.name().toLowerCase(java.util.Locale.ROOT));
    if (kind != Kind.ALLOWED) {
      out.append(" (");
      out.append(status > 0 ? "HTTP " + status : "no answer");
      if (code != null) {
        out.append(' ').append(code);
      }
      if (detail != null) {
        out.append(": ").append(detail);
      }
      out.append(')');
    }
    return out.toString();
  }
}
