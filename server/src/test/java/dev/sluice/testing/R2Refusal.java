package dev.sluice.testing;

import static java.util.Objects.requireNonNull;

/**
 * Why the {@link R2Gateway} refused a request: the S3 error code and HTTP status it answers, and a
 * reason for the gateway's log (never a secret).
 */
final class R2Refusal extends Exception {
  private final int status;
  private final String code;

  R2Refusal(int status, String code, String reason) {
    super(requireNonNull(reason, "reason"), null, false, false);
    this.status = status;
    this.code = requireNonNull(code, "code");
  }

  static R2Refusal accessDenied(String reason) {
    return new R2Refusal(403, "AccessDenied", reason);
  }

  static R2Refusal signature(String reason) {
    return new R2Refusal(403, "SignatureDoesNotMatch", reason);
  }

  static R2Refusal expired(String reason) {
    return new R2Refusal(403, "ExpiredToken", reason);
  }

  static R2Refusal badRequest(String code, String reason) {
    return new R2Refusal(400, code, reason);
  }

  int status() {
    return status;
  }

  String code() {
    return code;
  }
}
