package dev.sluice.auth;

import static org.assertj.core.api.Assertions.assertThat;

import dev.sluice.store.PrincipalRecord;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** Which principal record a token belongs to: by id, and legacy tokens only to legacy records. */
class AuthenticatorIdentityTest {
  private static PrincipalRecord record(String id) {
    return new PrincipalRecord("gus", "cid", "hash", Map.of(), 0, 1, id);
  }

  private static AuthenticatedPrincipal token(String principalId) {
    return AuthenticatedPrincipal.internal("gus", principalId, "cid", List.of(), Long.MAX_VALUE, 1);
  }

  @Test
  void aTokenBelongsToThePrincipalWhoseIdItNames() {
    assertThat(Authenticator.sameIdentity(record("p-1"), token("p-1"))).isTrue();
    assertThat(Authenticator.sameIdentity(record("p-2"), token("p-1"))).isFalse();
    assertThat(Authenticator.sameIdentity(record("legacy-gus"), token("p-1"))).isFalse();
  }

  @Test
  void aTokenFromBeforeIdsBelongsOnlyToThePrincipalThatExistedThen() {
    assertThat(Authenticator.sameIdentity(record("legacy-gus"), token(null))).isTrue();
    assertThat(Authenticator.sameIdentity(record("p-1"), token(null)))
        .as("gus deleted and created again after the upgrade")
        .isFalse();
  }

  @Test
  void anExternalIdentityNeverSharesAPrincipalsIdentity() {
    AuthenticatedPrincipal external = AuthenticatedPrincipal.external("gus", List.of(), 1);
    assertThat(external.identity()).isEqualTo("external:gus");
    assertThat(token("p-1").identity()).isEqualTo("principal:p-1");
    assertThat(token(null).identity()).isEqualTo("principal:legacy-gus");
  }
}
