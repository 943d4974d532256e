package dev.sluice.http;

import static java.util.Objects.requireNonNull;

import dev.sluice.auth.Authenticator;
import java.nio.charset.StandardCharsets;
import java.util.Base64;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;
import org.apache.iceberg.exceptions.BadRequestException;
import org.apache.iceberg.exceptions.NotAuthorizedException;
import org.apache.iceberg.rest.RESTUtil;

/**
 * {@code POST /api/catalog/v1/oauth/tokens}: OAuth2 client credentials (and token exchange,
 * which Iceberg clients use to refresh). Errors use OAuth's own shape,
 * {@code {"error": ..., "error_description": ...}}, which Iceberg's client parses.
 */
public final class OAuthRoutes {
  private final Authenticator authenticator;

  public OAuthRoutes(Authenticator authenticator) {
    this.authenticator = requireNonNull(authenticator, "authenticator");
  }

  public void register(HttpServer.Routes routes) {
    routes.addPublic("POST", "/api/catalog/v1/oauth/tokens", this::token);
  }

  private Reply token(Exchange x) {
    try {
      Map<String, String> form;
      try {
        form = RESTUtil.decodeFormData(x.bodyText());
      } catch (RuntimeException e) {
        throw new BadRequestException("invalid_request: the body is not form-encoded");
      }
      String token = authenticator.grant(form, basicAuth(x.header("Authorization")));
      Map<String, Object> body = new LinkedHashMap<>();
      body.put("access_token", token);
      body.put("token_type", "bearer");
      body.put("expires_in", authenticator.tokens().lifetime().toSeconds());
      body.put("issued_token_type", Authenticator.ACCESS_TOKEN_TYPE);
      return Reply.okPlain(body);
    } catch (NotAuthorizedException e) {
      return oauthError(401, e.getMessage(), "invalid_client");
    } catch (BadRequestException e) {
      return oauthError(400, e.getMessage(), "invalid_request");
    }
  }

  private static Reply oauthError(int status, String message, String fallbackCode) {
    String code = fallbackCode;
    String description = message;
    int colon = message.indexOf(':');
    if (colon > 0 && message.substring(0, colon).matches("[a-z_]+")) {
      code = message.substring(0, colon);
      description = message.substring(colon + 1).trim();
    }
    Map<String, String> body = new LinkedHashMap<>();
    body.put("error", code);
    body.put("error_description", description);
    return Reply.status(status, body);
  }

  private static Optional<String[]> basicAuth(String header) {
    if (header == null || !header.regionMatches(true, 0, "Basic ", 0, 6)) {
      return Optional.empty();
    }
    try {
      String decoded = new String(Base64.getDecoder().decode(header.substring(6).trim()), StandardCharsets.UTF_8);
      int colon = decoded.indexOf(':');
      if (colon < 0) {
        return Optional.empty();
      }
      return Optional.of(new String[] {
          RESTUtil.decodeString(decoded.substring(0, colon)), RESTUtil.decodeString(decoded.substring(colon + 1))});
    } catch (IllegalArgumentException e) {
      return Optional.empty();
    }
  }
}
