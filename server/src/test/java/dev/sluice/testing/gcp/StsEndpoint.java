package dev.sluice.testing.gcp;

import static java.util.Objects.requireNonNull;

import com.fasterxml.jackson.databind.node.ObjectNode;
import java.time.Duration;
import java.time.Instant;
import java.util.Map;
import java.util.function.Consumer;

/**
 * {@code POST /v1/token} of the Security Token Service, for the one use Google documents for a
 * Google access token (https://cloud.google.com/iam/docs/reference/sts/rest/v1/TopLevel/token and
 * https://cloud.google.com/iam/docs/downscoping-short-lived-credentials): applying a Credential
 * Access Boundary. The subject must be a live token the fake issued to a service account, not an
 * already downscoped one ("If an access token already contains security attributes, you cannot
 * apply additional security attributes"); the downscoped token expires with it.
 */
final class StsEndpoint {
  static final String TOKEN_EXCHANGE = "urn:ietf:params:oauth:grant-type:token-exchange";
  static final String ACCESS_TOKEN = "urn:ietf:params:oauth:token-type:access_token";

  private final IssuedTokens tokens;
  private final Consumer<Exchange> exchanges;

  StsEndpoint(IssuedTokens tokens, Consumer<Exchange> exchanges) {
    this.tokens = requireNonNull(tokens, "tokens");
    this.exchanges = requireNonNull(exchanges, "exchanges");
  }

  Http.Reply serve(Http.Call call) {
    if (!call.method().equals("POST")) {
      return Http.Reply.empty(405);
    }
    try {
      return exchange(call);
    } catch (GoogleErrors.OAuth e) {
      return e.reply();
    }
  }

  private Http.Reply exchange(Http.Call call) {
    String contentType = call.header("Content-Type");
    if (contentType == null || !contentType.startsWith("application/x-www-form-urlencoded")) {
      throw GoogleErrors.invalidRequest(
          "the fake STS takes form-encoded requests only, not " + contentType);
    }
    Map<String, String> form = call.form();
    String grantType = form.get("grant_type");
    if (!TOKEN_EXCHANGE.equals(grantType)) {
      throw new GoogleErrors.OAuth(
          400, "unsupported_grant_type", "Invalid value for \"grant_type\": " + grantType);
    }
    if (!ACCESS_TOKEN.equals(form.get("subject_token_type"))) {
      throw GoogleErrors.invalidRequest(
          "Invalid value for \"subject_token_type\": "
              + form.get("subject_token_type")
              + " (a Google access token is "
              + ACCESS_TOKEN
              + ")");
    }
    if (!ACCESS_TOKEN.equals(form.get("requested_token_type"))) {
      throw GoogleErrors.invalidRequest(
          "Invalid value for \"requested_token_type\": " + form.get("requested_token_type"));
    }
    String subjectToken = form.get("subject_token");
    if (subjectToken == null || subjectToken.isEmpty()) {
      throw GoogleErrors.invalidRequest("Missing required parameter: subject_token");
    }
    Instant now = tokens.now();
    IssuedTokens.Issued subject =
        tokens
            .find(subjectToken)
            .filter(t -> t.liveAt(now))
            .orElseThrow(
                () -> GoogleErrors.invalidGrant("The subject token is invalid or expired."));
    if (subject.kind() == IssuedTokens.Kind.DOWNSCOPED) {
      throw GoogleErrors.invalidRequest(
          "The subject token already carries a Credential Access Boundary; security attributes"
              + " cannot be applied again.");
    }
    String options = form.get("options");
    if (options == null || options.isBlank()) {
      throw GoogleErrors.invalidRequest(
          "Missing options: the fake STS exchanges a Google access token only to apply a"
              + " Credential Access Boundary ({\"accessBoundary\":{...}})");
    }
    Boundary boundary;
    try {
      boundary = Boundary.parseOptions(options);
    } catch (IllegalArgumentException e) {
      throw GoogleErrors.invalidRequest(e.getMessage());
    }
    IssuedTokens.Issued downscoped =
        tokens.issue(
            subject.account(),
            IssuedTokens.Kind.DOWNSCOPED,
            subject.scopes(),
            subject.expiresAt(),
            boundary);
    exchanges.accept(
        new Exchange(
            subject.account(), options, boundary, downscoped.value(), subject.expiresAt()));
    ObjectNode body = Http.JSON.createObjectNode();
    body.put("access_token", downscoped.value());
    body.put("issued_token_type", ACCESS_TOKEN);
    body.put("token_type", "Bearer");
    // The downscoped token lives exactly as long as the source token has left.
    body.put("expires_in", Math.max(0, Duration.between(now, subject.expiresAt()).toSeconds()));
    return Http.Reply.json(200, body);
  }
}
