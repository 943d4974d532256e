package dev.sluice.vending.azure;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.sluice.StandardBackends;
import dev.sluice.vending.CredentialSource;
import dev.sluice.vending.StorageBackends;
import dev.sluice.vending.s3.AwsCredentialSource;
import java.util.HashMap;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** {@code storageConfigInfo} for Azure and the Azure credential sources: mistakes name the key. */
class AzureStorageProfileTest {
  private static final ObjectMapper JSON = new ObjectMapper();
  private static final StorageBackends BACKENDS = StandardBackends.create();
  private static final String TENANT = "22222222-2222-2222-2222-222222222222";
  private static final String CLIENT = "33333333-3333-3333-3333-333333333333";
  private static final String BASE = "abfss://lake@acct1.dfs.core.windows.net/wh";
  private static final Map<String, CredentialSource> SOURCES =
      Map.of(
          "azure",
          BACKENDS.parseSource(
              "azure",
              Map.of(
                  "type",
                  "azure-client-secret",
                  "tenantId",
                  TENANT,
                  "clientId",
                  CLIENT,
                  "clientSecret",
                  "s3cret")),
          "rgw",
          AwsCredentialSource.staticKeys("rgw", "AKID", "secret"));

  private static AzureStorageProfile parse(String json) throws Exception {
    ObjectNode node = (ObjectNode) JSON.readTree(json);
    node.put("storageType", "azure");
    if (!node.has("allowedLocations")) {
      node.putArray("allowedLocations").add(BASE);
    }
    if (!node.has("credentialSource")) {
      node.put("credentialSource", "azure");
    }
    return (AzureStorageProfile) BACKENDS.parse("cat", node, BASE, SOURCES, 60).profile();
  }

  @Test
  void parsesAProfileWithPolarisKeys() throws Exception {
    AzureStorageProfile p =
        parse(
            "{\"tenantId\":\""
                + TENANT
                + "\",\"multiTenantAppName\":\"app\",\"consentUrl\":\"https://consent\","
                + "\"durationSeconds\":900,\"vendCredentials\":\"on-request\"}");
    assertThat(p.storageType()).isEqualTo("AZURE");
    assertThat(p.durationSeconds()).isEqualTo(900);
    assertThat(p.hierarchicalNamespace()).isTrue();
    assertThat(p.containerScope()).isFalse();
    assertThat(p.vendOnlyOnRequest()).isTrue();
    assertThat(p.refreshConfig("v1/c/namespaces/n/tables/t/credentials"))
        .containsEntry(
            "adls.refresh-credentials-endpoint", "v1/c/namespaces/n/tables/t/credentials")
        .containsEntry("adls.refresh-credentials-enabled", "true");
    assertThat(parse("{}").durationSeconds()).isEqualTo(AzureStorageProfile.DEFAULT_DURATION);
  }

  @Test
  void aFlatAccountNeedsTheOperatorToAcceptContainerScope() throws Exception {
    assertThatThrownBy(() -> parse("{\"hierarchicalNamespace\":false}"))
        .hasMessageContaining("storageConfigInfo.hierarchicalNamespace")
        .hasMessageContaining("allowContainerScope");
    AzureStorageProfile flat =
        parse("{\"hierarchicalNamespace\":false,\"allowContainerScope\":true}");
    assertThat(flat.containerScope()).isTrue();
    assertThatThrownBy(() -> parse("{\"allowContainerScope\":true}"))
        .hasMessageContaining("storageConfigInfo.allowContainerScope is only for flat accounts");
  }

  @Test
  void misconfigurationNamesTheKey() {
    assertThatThrownBy(() -> parse("{\"credentialSource\":\"rgw\"}"))
        .hasMessageContaining("storageConfigInfo.credentialSource")
        .hasMessageContaining("azure-client-secret");
    assertThatThrownBy(() -> parse("{\"durationSeconds\":700000}"))
        .hasMessageContaining("storageConfigInfo.durationSeconds must be between 60 and 604800");
    assertThatThrownBy(
            () -> parse("{\"allowedLocations\":[\"abfss://acct1.dfs.core.windows.net/wh\"]}"))
        .hasMessageContaining("storageConfigInfo.allowedLocations");
    assertThatThrownBy(
            () -> parse("{\"allowedLocations\":[\"abfs://lake@acct1.dfs.core.windows.net/wh\"]}"))
        .hasMessageContaining("storageConfigInfo.allowedLocations");
    assertThatThrownBy(() -> parse("{\"hierarchicalNamespace\":\"yes\"}"))
        .hasMessageContaining("storageConfigInfo.hierarchicalNamespace must be true or false");
  }

  @Test
  void tableLocationsMustFitOneSasPerAccount() throws Exception {
    AzureStorageProfile p = parse("{}");
    assertThat(p.unusableLocations(BASE + "/ns/t", Map.of("write.data.path", BASE + "/ns/t/d")))
        .isEmpty();
    assertThat(p.unusableLocations(BASE + "/ns/t", Map.of("write.data.path", BASE + "/other")))
        .hasValueSatisfying(why -> assertThat(why).contains("write.data.path", "outside"));
  }

  @Test
  void sourceMistakesNameTheKey() {
    Map<String, String> secret =
        new HashMap<>(
            Map.of(
                "type",
                "azure-client-secret",
                "tenantId",
                TENANT,
                "clientId",
                CLIENT,
                "clientSecret",
                "x"));
    secret.remove("clientSecret");
    assertThatThrownBy(() -> BACKENDS.parseSource("a", secret))
        .hasMessageContaining("storage.credentialSources.a.clientSecret is required");
    secret.put("clientSecret", "x");
    secret.put("clientId", "not-a-guid");
    assertThatThrownBy(() -> BACKENDS.parseSource("a", secret))
        .hasMessageContaining("storage.credentialSources.a.clientId must be a GUID");
    secret.put("clientId", CLIENT);
    secret.put("endpoint", "http://127.0.0.1:10000/devstoreaccount1");
    assertThatThrownBy(() -> BACKENDS.parseSource("a", secret))
        .hasMessageContaining("storage.credentialSources.a.endpoint must be https://");
    assertThatThrownBy(
            () ->
                BACKENDS.parseSource(
                    "w",
                    Map.of(
                        "type",
                        "azure-workload-identity",
                        "tenantId",
                        TENANT,
                        "clientId",
                        CLIENT,
                        "tokenFile",
                        "/nonexistent/token")))
        .hasMessageContaining("storage.credentialSources.w.tokenFile: no readable file");
    assertThat(
            BACKENDS
                .parseSource("m", Map.of("type", "azure-managed-identity", "clientId", CLIENT))
                .type())
        .isEqualTo("azure-managed-identity");
  }
}
