package dev.sluice.vending.azure;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.azure.storage.file.datalake.models.UserDelegationKey;
import dev.sluice.vending.AccessMode;
import java.net.URLDecoder;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.util.Base64;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * Directory and container SAS checked offline, field by field, and their signatures recomputed from
 * the token's own fields with the delegation key through the SDK's signing code: a field the
 * signature did not cover, or another key, would not match. (Azurite refuses directory SAS
 * outright, so this is where a directory SAS is proven.)
 */
class SasSignerTest {
  private static final OffsetDateTime EXPIRY =
      OffsetDateTime.of(2026, 11, 30, 1, 0, 0, 0, ZoneOffset.UTC);
  private static final UserDelegationKey KEY = key(new byte[32]);

  static UserDelegationKey key(byte[] secret) {
    return new UserDelegationKey()
        .setSignedObjectId("11111111-1111-1111-1111-111111111111")
        .setSignedTenantId("22222222-2222-2222-2222-222222222222")
        .setSignedStart(OffsetDateTime.of(2026, 11, 30, 0, 0, 0, 0, ZoneOffset.UTC))
        .setSignedExpiry(OffsetDateTime.of(2026, 12, 1, 0, 0, 0, 0, ZoneOffset.UTC))
        .setSignedService("b")
        .setSignedVersion("2025-01-05")
        .setValue(Base64.getEncoder().encodeToString(secret));
  }

  static Map<String, String> fields(String sas) {
    Map<String, String> fields = new LinkedHashMap<>();
    for (String pair : sas.split("&")) {
      int eq = pair.indexOf('=');
      fields.put(pair.substring(0, eq), URLDecoder.decode(pair.substring(eq + 1), UTF_8));
    }
    return fields;
  }

  private static SasScope scope(String location, boolean container) {
    return SasScope.of(List.of(location), container).get(0);
  }

  @Test
  void aReaderGetsADirectorySasOnTheTableDirectoryOnly() {
    String sas =
        SasSigner.sign(
            scope("abfss://lake@acct1.dfs.core.windows.net/wh/ns/t", false),
            AccessMode.READ,
            KEY,
            EXPIRY);
    Map<String, String> f = fields(sas);
    assertThat(f)
        .containsEntry("sr", "d")
        .containsEntry("sdd", "3")
        .containsEntry("sp", "rl")
        .containsEntry("spr", "https")
        .containsEntry("se", "2026-11-30T01:00:00Z")
        .containsEntry("skoid", KEY.getSignedObjectId())
        .containsEntry("sktid", KEY.getSignedTenantId())
        .containsEntry("skt", "2026-11-30T00:00:00Z")
        .containsEntry("ske", "2026-12-01T00:00:00Z")
        .containsEntry("sks", "b")
        .containsEntry("skv", "2025-01-05")
        .containsKeys("sv", "sig")
        .doesNotContainKeys("st", "sip", "si", "ss", "srt");
    assertThat(f.keySet())
        .containsExactlyInAnyOrder(
            "sv", "spr", "se", "skoid", "sktid", "skt", "ske", "sks", "skv", "sr", "sp", "sdd",
            "sig");
    assertThat(SasVerifier.signatureMatches(sas, "acct1", "lake", "wh/ns/t", KEY)).isTrue();
  }

  @Test
  void aWriterAddsAddCreateWriteDeleteButNeverMoveOrAcl() {
    String sas =
        SasSigner.sign(
            scope("abfss://lake@acct1.dfs.core.windows.net/wh/ns/t", false),
            AccessMode.READ_WRITE,
            KEY,
            EXPIRY);
    assertThat(fields(sas).get("sp")).isEqualTo("racwdl");
    assertThat(SasVerifier.signatureMatches(sas, "acct1", "lake", "wh/ns/t", KEY)).isTrue();
  }

  @Test
  void aContainerSasOnlyWhereTheOperatorAllowedIt() {
    String sas =
        SasSigner.sign(
            scope("abfss://lake@acct1.dfs.core.windows.net/wh/ns/t", true),
            AccessMode.READ,
            KEY,
            EXPIRY);
    Map<String, String> f = fields(sas);
    assertThat(f).containsEntry("sr", "c").containsEntry("sp", "rl").doesNotContainKey("sdd");
    assertThat(SasVerifier.signatureMatches(sas, "acct1", "lake", null, KEY)).isTrue();
  }

  @Test
  void theSignatureDependsOnEveryFieldAndTheKey() {
    String sas =
        SasSigner.sign(
            scope("abfss://lake@acct1.dfs.core.windows.net/wh/ns/t", false),
            AccessMode.READ,
            KEY,
            EXPIRY);
    byte[] other = new byte[32];
    other[0] = 1;
    assertThat(SasVerifier.signatureMatches(sas, "acct1", "lake", "wh/ns/t", key(other)))
        .as("another delegation key")
        .isFalse();
    assertThat(SasVerifier.signatureMatches(sas, "acct1", "lake", "wh/ns/t2", KEY))
        .as("another directory")
        .isFalse();
    assertThat(
            SasVerifier.signatureMatches(
                sas.replace("sp=rl", "sp=racwdl"), "acct1", "lake", "wh/ns/t", KEY))
        .as("widened permissions")
        .isFalse();
    assertThat(
            SasVerifier.signatureMatches(
                sas.replace("sdd=3", "sdd=2"), "acct1", "lake", "wh/ns", KEY))
        .as("a shallower directory")
        .isFalse();
  }

  @Test
  void containerRootsAndTwoDirectoriesPerAccountHaveNoScope() {
    assertThat(SasScope.problem(List.of("abfss://lake@acct1.dfs.core.windows.net"), false))
        .hasValueSatisfying(why -> assertThat(why).contains("root of container lake"));
    assertThat(
            SasScope.problem(
                List.of(
                    "abfss://lake@acct1.dfs.core.windows.net/wh/t",
                    "abfss://lake@acct1.dfs.core.windows.net/wh/t/data",
                    "abfss://lake@acct1.dfs.core.windows.net/other/t-data"),
                false))
        .hasValueSatisfying(
            why -> assertThat(why).contains("location 3 is outside location's directory"));
    assertThat(
            SasScope.of(
                List.of(
                    "abfss://lake@acct1.dfs.core.windows.net/wh/t/x",
                    "abfss://lake@acct1.dfs.core.windows.net/wh/t",
                    "abfss://lake@acct2.dfs.core.windows.net/d"),
                false))
        .extracting(s -> s.location().host() + "/" + s.location().directory())
        .containsExactly("acct1.dfs.core.windows.net/wh/t", "acct2.dfs.core.windows.net/d");
    assertThat(
            SasScope.problem(
                List.of(
                    "abfss://lake@acct1.dfs.core.windows.net/wh/t",
                    "abfss://other@acct1.dfs.core.windows.net/wh/t"),
                true))
        .hasValueSatisfying(why -> assertThat(why).contains("container"));
    assertThatThrownBy(() -> AzureLocation.parse("abfs://lake@acct1.dfs.core.windows.net/t"))
        .hasMessageContaining("plain-HTTP");
    assertThatThrownBy(() -> AzureLocation.parse("abfss://lake@acct1.blob.core.windows.net/t"))
        .hasMessageContaining("abfss:// goes with a .dfs. host");
    assertThatThrownBy(() -> AzureLocation.parse("abfss://acct1.dfs.core.windows.net/t"))
        .hasMessageContaining("names no container");
  }
}
