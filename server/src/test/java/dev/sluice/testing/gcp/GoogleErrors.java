package dev.sluice.testing.gcp;

import com.fasterxml.jackson.databind.node.ObjectNode;

/** The error shapes of Google's OAuth/STS endpoints and of its gRPC-transcoded REST APIs. */
final class GoogleErrors {
  private GoogleErrors() {}

  /** An OAuth error ({@code {"error":..,"error_description":..}}), what /token and STS answer. */
  static final class OAuth extends RuntimeException {
    final int status;
    final String error;

    OAuth(int status, String error, String description) {
      super(description, null, false, false);
      this.status = status;
      this.error = error;
    }

    Http.Reply reply() {
      ObjectNode body = Http.JSON.createObjectNode();
      body.put("error", error);
      body.put("error_description", getMessage());
      return Http.Reply.json(status, body);
    }
  }

  static OAuth invalidGrant(String description) {
    return new OAuth(400, "invalid_grant", description);
  }

  static OAuth invalidRequest(String description) {
    return new OAuth(400, "invalid_request", description);
  }

  /**
   * A google.rpc.Status error ({@code {"error":{"code","message","status"}}}), what IAM Credentials
   * answers; with an ErrorInfo detail when {@code reason} is not null.
   */
  static Http.Reply rpc(int code, String status, String message, String reason, String domain) {
    ObjectNode root = Http.JSON.createObjectNode();
    ObjectNode error = root.putObject("error");
    error.put("code", code);
    error.put("message", message);
    error.put("status", status);
    if (reason != null) {
      ObjectNode info = error.putArray("details").addObject();
      info.put("@type", "type.googleapis.com/google.rpc.ErrorInfo");
      info.put("reason", reason);
      info.put("domain", domain);
    }
    return Http.Reply.json(code, root);
  }
}
