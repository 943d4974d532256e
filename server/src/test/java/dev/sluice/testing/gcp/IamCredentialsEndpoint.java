package dev.sluice.testing.gcp;

import static java.util.Objects.requireNonNull;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;
import java.time.Instant;
import java.time.format.DateTimeFormatter;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * IAM Credentials {@code POST /v1/projects/-/serviceAccounts/EMAIL:generateAccessToken}
 * (https://cloud.google.com/iam/docs/reference/credentials/rest/v1/projects.serviceAccounts/generateAccessToken),
 * what ImpersonatedCredentials calls: the caller's live, not downscoped, token must belong to an
 * account allowed to impersonate the target (through each delegate in turn); the token issued is
 * the target's, carrying the target's own IAM, for 1 to 3600 seconds.
 */
final class IamCredentialsEndpoint {
  private static final Pattern PATH =
      Pattern.compile("/v1/projects/-/serviceAccounts/([^/:]+):generateAccessToken");
  private static final Pattern DELEGATE = Pattern.compile("projects/-/serviceAccounts/(.+)");
  private static final Pattern LIFETIME = Pattern.compile("(\\d+)(?:\\.\\d+)?s");
  private static final String DENIED =
      "Permission 'iam.serviceAccounts.getAccessToken' denied on resource (or it may not exist).";

  private final Accounts accounts;
  private final IssuedTokens tokens;

  IamCredentialsEndpoint(Accounts accounts, IssuedTokens tokens) {
    this.accounts = requireNonNull(accounts, "accounts");
    this.tokens = requireNonNull(tokens, "tokens");
  }

  Http.Reply serve(Http.Call call) {
    Matcher path = PATH.matcher(call.rawPath());
    if (!path.matches() || !call.method().equals("POST")) {
      return GoogleErrors.rpc(
          404, "NOT_FOUND", "The fake IAM Credentials API has no such method", null, null);
    }
    String target = Http.percentDecode(path.group(1));
    String bearer = call.bearer().orElse(null);
    if (bearer == null) {
      return GoogleErrors.rpc(
          401,
          "UNAUTHENTICATED",
          "Request is missing required authentication credential. Expected OAuth 2 access token,"
              + " login cookie or other valid authentication credential.",
          "CREDENTIALS_MISSING",
          "googleapis.com");
    }
    Instant now = tokens.now();
    IssuedTokens.Issued caller = tokens.find(bearer).filter(t -> t.liveAt(now)).orElse(null);
    if (caller == null) {
      return GoogleErrors.rpc(
              401,
              "UNAUTHENTICATED",
              "Request had invalid authentication credentials. Expected OAuth 2 access token, login"
                  + " cookie or other valid authentication credential.",
              null,
              null)
          .header(
              "WWW-Authenticate",
              "Bearer realm=\"https://accounts.google.com/\", error=\"invalid_token\"");
    }
    if (caller.kind() == IssuedTokens.Kind.DOWNSCOPED) {
      // A Credential Access Boundary makes only Cloud Storage permissions available.
      return denied();
    }
    if (!caller.scopes().contains("https://www.googleapis.com/auth/cloud-platform")
        && !caller.scopes().contains("https://www.googleapis.com/auth/iam")) {
      return GoogleErrors.rpc(
          403,
          "PERMISSION_DENIED",
          "Request had insufficient authentication scopes.",
          "ACCESS_TOKEN_SCOPE_INSUFFICIENT",
          "googleapis.com");
    }
    JsonNode body;
    try {
      body = Http.JSON.readTree(call.body());
    } catch (IOException e) {
      return invalid("Invalid JSON payload received.");
    }
    if (body == null || !body.path("scope").isArray() || body.path("scope").isEmpty()) {
      return invalid("Scope required.");
    }
    Set<String> scopes = new HashSet<>();
    body.path("scope").forEach(s -> scopes.add(s.asText()));
    long seconds = 3600;
    if (body.hasNonNull("lifetime")) {
      Matcher lifetime = LIFETIME.matcher(body.get("lifetime").asText());
      if (!lifetime.matches()) {
        return invalid("Invalid value at 'lifetime': " + body.get("lifetime"));
      }
      seconds = Long.parseLong(lifetime.group(1));
    }
    if (seconds < 1 || seconds > 3600) {
      return invalid(
          "The lifetime requested, "
              + seconds
              + "s, must be between 1s and 3600s (3600s without"
              + " the iam.allowServiceAccountCredentialLifetimeExtension constraint)");
    }
    List<String> chain = new ArrayList<>();
    chain.add(caller.account());
    for (JsonNode delegate : body.path("delegates")) {
      Matcher name = DELEGATE.matcher(delegate.asText());
      if (!name.matches()) {
        return invalid("Invalid delegate " + delegate.asText());
      }
      chain.add(name.group(1));
    }
    chain.add(target);
    for (int i = 0; i + 1 < chain.size(); i++) {
      if (accounts.find(chain.get(i + 1)).isEmpty()
          || !accounts.mayImpersonate(chain.get(i), chain.get(i + 1))) {
        return denied();
      }
    }
    Instant expires = now.plusSeconds(seconds).truncatedTo(ChronoUnit.SECONDS);
    IssuedTokens.Issued issued =
        tokens.issue(target, IssuedTokens.Kind.IMPERSONATED, scopes, expires, null);
    ObjectNode answer = Http.JSON.createObjectNode();
    answer.put("accessToken", issued.value());
    answer.put("expireTime", DateTimeFormatter.ISO_INSTANT.format(expires));
    return Http.Reply.json(200, answer);
  }

  private static Http.Reply denied() {
    return GoogleErrors.rpc(
        403, "PERMISSION_DENIED", DENIED, "IAM_PERMISSION_DENIED", "iam.googleapis.com");
  }

  private static Http.Reply invalid(String message) {
    return GoogleErrors.rpc(400, "INVALID_ARGUMENT", message, null, null);
  }
}
