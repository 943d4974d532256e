package dev.sluice.testing.gcp;

import static java.util.Objects.requireNonNull;

import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * A Cloud Storage JSON API error, answered as GCS does: {@code
 * {"error":{"code":N,"message":M,"errors":[{"message":M,"domain":"global","reason":R}]}}}.
 */
final class GcsError extends RuntimeException {
  final int status;
  final String reason;
  final Map<String, String> headers = new LinkedHashMap<>();

  GcsError(int status, String reason, String message) {
    super(requireNonNull(message, "message"), null, false, false);
    this.status = status;
    this.reason = requireNonNull(reason, "reason");
  }

  static GcsError notFound(String message) {
    return new GcsError(404, "notFound", message);
  }

  static GcsError badRequest(String message) {
    return new GcsError(400, "invalid", message);
  }

  static GcsError forbidden(String message) {
    return new GcsError(403, "forbidden", message);
  }

  static GcsError preconditionFailed() {
    return new GcsError(
        412, "conditionNotMet", "At least one of the pre-conditions you specified did not hold.");
  }

  static GcsError unauthorized() {
    GcsError error = new GcsError(401, "authError", "Invalid Credentials");
    // GCS's challenge for an invalid or expired token. Google's ESF front ends add
    // error="invalid_token", which makes google-auth try to refresh: a fixed OAuth2Credentials
    // (GCSFileIO with gcs.oauth2.token) then fails with IllegalStateException instead of the 401.
    error.headers.put("WWW-Authenticate", "Bearer realm=\"https://accounts.google.com/\"");
    return error;
  }

  static GcsError unsupported(String what) {
    return new GcsError(501, "notImplemented", "The GCS fake does not implement " + what);
  }

  Http.Reply reply() {
    ObjectNode root = Http.JSON.createObjectNode();
    ObjectNode error = root.putObject("error");
    error.put("code", status);
    error.put("message", getMessage());
    ObjectNode detail = error.putArray("errors").addObject();
    detail.put("message", getMessage());
    detail.put("domain", "global");
    detail.put("reason", reason);
    if (status == 401) {
      detail.put("locationType", "header");
      detail.put("location", "Authorization");
    }
    Http.Reply reply = Http.Reply.json(status, root);
    headers.forEach(reply::header);
    return reply;
  }
}
