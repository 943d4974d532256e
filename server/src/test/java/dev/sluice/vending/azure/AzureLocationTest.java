package dev.sluice.vending.azure;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

/** Azure's container names: 3 to 63 characters, lower case, digits, single inner hyphens. */
class AzureLocationTest {
  private static String at(String container) {
    return "abfss://" + container + "@acct.dfs.core.windows.net/wh";
  }

  @Test
  void containerNamesOfThreeToSixtyThreeCharactersAreAccepted() {
    assertThat(AzureLocation.parse(at("abc")).container()).isEqualTo("abc");
    assertThat(AzureLocation.parse(at("a-b-c")).container()).isEqualTo("a-b-c");
    assertThat(AzureLocation.parse(at("a".repeat(63))).container()).hasSize(63);
  }

  @Test
  void containerNamesAzureRefusesAreRefused() {
    for (String bad :
        new String[] {"ab", "a".repeat(64), "a-".repeat(62) + "a", "a--b", "-ab", "ab-", "Abc"}) {
      assertThatThrownBy(() -> AzureLocation.parse(at(bad)))
          .as(bad)
          .isInstanceOf(IllegalArgumentException.class)
          .hasMessageContaining("is not a container name");
    }
  }
}
