package dev.sluice.vending;

import static dev.sluice.vending.Delegation.Kind.REMOTE_SIGNING;
import static dev.sluice.vending.Delegation.Kind.VENDED_CREDENTIALS;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.Optional;
import java.util.Set;
import org.junit.jupiter.api.Test;

class DelegationTest {
  @Test
  void theHeaderIsACommaSeparatedListWhoseUnknownValuesAreIgnored() {
    assertThat(Delegation.requested(null)).isEmpty();
    assertThat(Delegation.requested("")).isEmpty();
    assertThat(Delegation.requested("vended-credentials")).containsExactly(VENDED_CREDENTIALS);
    assertThat(Delegation.requested(" Remote-Signing , vended-credentials,unknown"))
        .containsExactlyInAnyOrder(REMOTE_SIGNING, VENDED_CREDENTIALS);
    assertThat(Delegation.requested("vended-credentials-please")).isEmpty();
  }

  @Test
  void onlyAnExplicitNoneDeclines() {
    assertThat(Delegation.declined("none")).isTrue();
    assertThat(Delegation.declined(" None ")).isTrue();
    assertThat(Delegation.declined(null)).isFalse();
    assertThat(Delegation.declined("")).isFalse();
    assertThat(Delegation.declined("none, vended-credentials")).isFalse();
    assertThat(Delegation.declined("nonesuch")).isFalse();
  }

  @Test
  void theClientsChoiceWinsAmongWhatTheCatalogOffers() {
    Set<Delegation.Kind> both = Set.of(VENDED_CREDENTIALS, REMOTE_SIGNING);
    assertThat(Delegation.choose(Set.of(REMOTE_SIGNING), both, true)).contains(REMOTE_SIGNING);
    assertThat(Delegation.choose(both, both, true)).contains(VENDED_CREDENTIALS);
    // Asked only for what is not offered: nothing on an on-request catalog, else its default.
    assertThat(Delegation.choose(Set.of(REMOTE_SIGNING), Set.of(VENDED_CREDENTIALS), true))
        .isEmpty();
    assertThat(Delegation.choose(Set.of(REMOTE_SIGNING), Set.of(VENDED_CREDENTIALS), false))
        .contains(VENDED_CREDENTIALS);
    // No header: Spark sends none, so an "always" catalog delegates anyway.
    assertThat(Delegation.choose(Set.of(), Set.of(VENDED_CREDENTIALS), false))
        .contains(VENDED_CREDENTIALS);
    assertThat(Delegation.choose(Set.of(), Set.of(VENDED_CREDENTIALS), true)).isEmpty();
    assertThat(Delegation.choose(Set.of(VENDED_CREDENTIALS), Set.of(), false)).isEmpty();
  }

  @Test
  void aDelegationHasAKindAndAModeOrNeither() {
    assertThat(Delegation.NONE.isNone()).isTrue();
    Delegation read = Delegation.of(VENDED_CREDENTIALS, AccessMode.READ);
    assertThat(read.isNone()).isFalse();
    assertThat(read.mode()).contains(AccessMode.READ);
    assertThatThrownBy(() -> new Delegation(VENDED_CREDENTIALS, Optional.empty()))
        .isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> new Delegation(null, Optional.of(AccessMode.READ)))
        .isInstanceOf(IllegalArgumentException.class);
  }
}
