package dev.sluice.http;

import static java.util.Objects.requireNonNull;

import dev.sluice.auth.Authenticator;
import dev.sluice.auth.TokenEndpoint;
import dev.sluice.auth.TokenRefused;
import dev.sluice.auth.TokenThrottle;
import java.nio.charset.StandardCharsets;
import java.util.Base64;
import java.util.LinkedHashMap;
import java.util.Map;
import org.apache.iceberg.rest.RESTUtil;

/**
 * {@code POST /api/catalog/v1/oauth/tokens}: OAuth2 client credentials (and token exchange, which
 * Iceberg clients use to refresh); the decisions are {@link TokenEndpoint}'s. Errors use OAuth's
 * own shape, {@code {"error": ..., "error_description": ...}}, which Iceberg's client parses; a
 * throttled request is 429 with {@code Retry-After} (seconds).
 */
public final class OAuthRoutes {
  /** The largest token request body taken. */
  static final int MAX_BODY = 64 * 1024;

  private final TokenEndpoint endpoint;

  public OAuthRoutes(TokenEndpoint endpoint) {
    this.endpoint = requireNonNull(endpoint, "endpoint");
  }

  public void register(HttpServer.Routes routes) {
    // A token request is a short form (a grant, a client id and secret, a scope, a token to
    // exchange): 64 KiB is ample, and anyone may send one.
    routes.addPublic("POST", "/api/catalog/v1/oauth/tokens", this::token, MAX_BODY);
  }

  private Reply token(Exchange x) {
    try {
      Map<String, String> form;
      try {
        form = RESTUtil.decodeFormData(x.bodyText());
      } catch (RuntimeException e) {
        throw endpoint.malformed(x.requestId(), x.auditOrigin());
      }
      String[] basic = basicAuth(x.header("Authorization"));
      TokenEndpoint.Issued issued =
          endpoint.grant(
              new TokenEndpoint.Request(
                  form,
                  basic == null ? null : basic[0],
                  basic == null ? null : basic[1],
                  // Per client, also behind a trusted proxy; a forwarded address from any other
                  // peer is
                  // ignored, so it cannot dodge the throttle.
                  TokenThrottle.addressKey(x.clientAddress()),
                  x.requestId(),
                  x.auditOrigin()));
      Map<String, Object> body = new LinkedHashMap<>();
      body.put("access_token", issued.accessToken());
      body.put("token_type", "bearer");
      body.put("expires_in", issued.expiresInSeconds());
      body.put("issued_token_type", Authenticator.ACCESS_TOKEN_TYPE);
      return Reply.okPlain(body);
    } catch (TokenRefused e) {
      Reply reply = oauthError(e.status(), e.error(), e.description());
      return e.retryAfterSeconds() > 0
          ? reply.withHeader("Retry-After", Long.toString(e.retryAfterSeconds()))
          : reply;
    }
  }

  private static Reply oauthError(int status, String code, String description) {
    Map<String, String> body = new LinkedHashMap<>();
    body.put("error", code);
    body.put("error_description", description);
    return Reply.status(status, body);
  }

  /** The client id and secret of an HTTP Basic header (each form-url-decoded), or null. */
  private static String[] basicAuth(String header) {
    if (header == null || !header.regionMatches(true, 0, "Basic ", 0, 6)) {
      return null;
    }
    try {
      String decoded =
          new String(
              Base64.getDecoder().decode(header.substring(6).trim()), StandardCharsets.UTF_8);
      int colon = decoded.indexOf(':');
      if (colon < 0) {
        return null;
      }
      return new String[] {
        RESTUtil.decodeString(decoded.substring(0, colon)),
        RESTUtil.decodeString(decoded.substring(colon + 1))
      };
    } catch (IllegalArgumentException e) {
      return null;
    }
  }
}
