package dev.sluice.http;

import static java.util.Objects.requireNonNull;

import dev.sluice.auth.TokenService;
import dev.sluice.authz.Authorizer;
import java.util.Map;

/**
 * {@code POST /api/management/v1/signing-keys/rotate} (service_admin): a new token signing key,
 * used for new tokens on every replica within 30 s; tokens signed with older keys stay valid until
 * they expire. The key material never leaves the server.
 */
public final class SigningKeyRoutes {
  private final TokenService tokens;
  private final Authorizer authz;

  public SigningKeyRoutes(TokenService tokens, Authorizer authz) {
    this.tokens = requireNonNull(tokens, "tokens");
    this.authz = requireNonNull(authz, "authz");
  }

  public void register(HttpServer.Routes routes) {
    routes.add(
        "POST",
        "/api/management/v1/signing-keys/rotate",
        x -> {
          authz.requireServiceAdmin(
              authz.caller(x.principal(), x.requestId()), "rotateSigningKey", "signing-keys");
          return Reply.okPlain(Map.of("kid", tokens.rotate()));
        });
  }
}
