package dev.sluice.http;

import static java.util.Objects.requireNonNull;

import dev.sluice.api.RotatedSigningKey;
import dev.sluice.api.SigningKeys;
import dev.sluice.auth.TokenService;
import java.util.NoSuchElementException;
import org.apache.iceberg.exceptions.BadRequestException;
import org.apache.iceberg.exceptions.NotFoundException;

/**
 * The token signing keys (the service admin's, see {@link ManagementRoutes}): {@code POST
 * …/signing-keys/rotate} adds a key, used for new tokens on every replica within 30 s, while tokens
 * signed with older keys stay valid until they expire; {@code GET …/signing-keys} lists them (ids
 * and ages, never the material); {@code DELETE …/signing-keys/{kid}} retires an older key, after
 * which every token it signed is refused, on every replica within 30 s. The key material never
 * leaves the server.
 */
public final class SigningKeyRoutes {
  private final TokenService tokens;

  public SigningKeyRoutes(TokenService tokens) {
    this.tokens = requireNonNull(tokens, "tokens");
  }

  Reply rotate(ManagementRoutes.Call call) {
    return Reply.okPlain(new RotatedSigningKey(tokens.rotate()));
  }

  Reply list(ManagementRoutes.Call call) {
    return Reply.okPlain(
        new SigningKeys(
            tokens.keys().stream()
                .map(k -> new SigningKeys.SigningKey(k.kid(), k.createdAt(), k.active()))
                .toList()));
  }

  Reply retire(ManagementRoutes.Call call) {
    String kid = call.x().path("kid");
    try {
      tokens.retire(kid);
    } catch (NoSuchElementException e) {
      throw new NotFoundException("%s", e.getMessage());
    } catch (IllegalStateException e) {
      throw new BadRequestException("%s", e.getMessage());
    }
    return Reply.NO_CONTENT;
  }
}
