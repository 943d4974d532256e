package dev.sluice.auth;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import org.junit.jupiter.api.Test;

class ExchangeScopesTest {
  private static final List<String> ALL = List.of("PRINCIPAL_ROLE:ALL");
  private static final List<String> R1 = List.of("PRINCIPAL_ROLE:r1");

  @Test
  void noRoleScopeKeepsTheSubjectTokensScopes() {
    assertThat(ExchangeScopes.narrow(R1, List.of())).isEqualTo(R1);
    assertThat(ExchangeScopes.narrow(R1, List.of("catalog")))
        .as("Iceberg's default scope")
        .isEqualTo(R1);
    assertThat(ExchangeScopes.narrow(ALL, List.of("catalog"))).isEqualTo(ALL);
    assertThat(ExchangeScopes.narrow(List.of(), List.of("catalog"))).isEmpty();
  }

  @Test
  void allIsRefusedOnANarrowedToken() {
    assertThatThrownBy(() -> ExchangeScopes.narrow(R1, ALL))
        .isInstanceOf(ExchangeScopes.Widening.class)
        .hasMessageContaining("PRINCIPAL_ROLE:ALL")
        .hasMessageContaining("r1");
    assertThatThrownBy(
            () -> ExchangeScopes.narrow(R1, List.of("PRINCIPAL_ROLE:r1", "PRINCIPAL_ROLE:ALL")))
        .isInstanceOf(ExchangeScopes.Widening.class);
    assertThat(ExchangeScopes.narrow(ALL, ALL)).isEqualTo(ALL);
    assertThat(ExchangeScopes.narrow(List.of("catalog"), ALL))
        .as("a token without role scope has all roles")
        .isEqualTo(ALL);
  }

  @Test
  void explicitRolesMustBeActiveInTheSubjectToken() {
    List<String> r1r2 = List.of("PRINCIPAL_ROLE:r1", "PRINCIPAL_ROLE:r2");
    assertThat(ExchangeScopes.narrow(r1r2, R1)).isEqualTo(R1);
    assertThat(ExchangeScopes.narrow(ALL, R1)).isEqualTo(R1);
    assertThat(ExchangeScopes.narrow(R1, R1)).isEqualTo(R1);
    assertThatThrownBy(() -> ExchangeScopes.narrow(R1, r1r2))
        .isInstanceOf(ExchangeScopes.Widening.class)
        .hasMessageContaining("r2")
        .hasMessageNotContaining("r1,");
    assertThatThrownBy(() -> ExchangeScopes.narrow(R1, List.of("PRINCIPAL_ROLE:")))
        .isInstanceOf(ExchangeScopes.Widening.class);
  }
}
