package dev.sluice.http;

import static java.util.Objects.requireNonNull;

import dev.sluice.auth.TokenService;
import dev.sluice.authz.Authorizer;
import java.util.Map;

/**
 * The token signing keys (service_admin, audited): {@code POST …/signing-keys/rotate} adds a key,
 * used for new tokens on every replica within 30 s, while tokens signed with older keys stay valid
 * until they expire; {@code GET …/signing-keys} lists them (ids and ages, never the material);
 * {@code DELETE …/signing-keys/{kid}} retires an older key, after which every token it signed is
 * refused, on every replica within 30 s. The key material never leaves the server.
 */
public final class SigningKeyRoutes {
  private final TokenService tokens;
  private final Authorizer authz;

  public SigningKeyRoutes(TokenService tokens, Authorizer authz) {
    this.tokens = requireNonNull(tokens, "tokens");
    this.authz = requireNonNull(authz, "authz");
  }

  public void register(HttpServer.Routes routes) {
    routes
        .add(
            "POST",
            "/api/management/v1/signing-keys/rotate",
            x -> {
              serviceAdmin(x, "rotateSigningKey", "signing-keys");
              return Reply.okPlain(Map.of("kid", tokens.rotate()));
            })
        .add(
            "GET",
            "/api/management/v1/signing-keys",
            x -> {
              serviceAdmin(x, "listSigningKeys", "signing-keys");
              return Reply.okPlain(Map.of("keys", tokens.keys()));
            })
        .add(
            "DELETE",
            "/api/management/v1/signing-keys/{kid}",
            x -> {
              String kid = x.path("kid");
              serviceAdmin(x, "retireSigningKey", "signing-key " + kid);
              try {
                tokens.retire(kid);
              } catch (java.util.NoSuchElementException e) {
                throw new org.apache.iceberg.exceptions.NotFoundException("%s", e.getMessage());
              } catch (IllegalStateException e) {
                throw new org.apache.iceberg.exceptions.BadRequestException("%s", e.getMessage());
              }
              return Reply.NO_CONTENT;
            });
  }

  private void serviceAdmin(Exchange x, String action, String securable) {
    authz.requireServiceAdmin(authz.caller(x.principal(), x.requestId()), action, securable);
  }
}
