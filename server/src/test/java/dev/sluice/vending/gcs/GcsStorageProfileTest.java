package dev.sluice.vending.gcs;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.sluice.StandardBackends;
import dev.sluice.vending.CredentialSource;
import dev.sluice.vending.StorageBackends;
import dev.sluice.vending.s3.AwsCredentialSource;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.KeyPairGenerator;
import java.util.Base64;
import java.util.HashMap;
import java.util.Map;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code storageConfigInfo} for GCS and the Google credential sources: every mistake names its key.
 */
class GcsStorageProfileTest {
  private static final ObjectMapper JSON = new ObjectMapper();
  private static final StorageBackends BACKENDS = StandardBackends.create();
  @TempDir static Path dir;
  private static Map<String, CredentialSource> sources;
  private static Path keyFile;

  @BeforeAll
  static void sources() throws Exception {
    keyFile = dir.resolve("key.json");
    Files.writeString(keyFile, serviceAccountKey("vend@proj-123.iam.gserviceaccount.com"));
    sources =
        Map.of(
            "gcp",
            BACKENDS.parseSource(
                "gcp", Map.of("type", "google-service-account", "keyFile", keyFile.toString())),
            "adc",
            BACKENDS.parseSource("adc", Map.of("type", "google-adc")),
            "rgw",
            AwsCredentialSource.staticKeys("rgw", "AKID", "secret"));
  }

  /** A service-account key file as the IAM console writes it, with a fresh RSA key. */
  static String serviceAccountKey(String email) throws Exception {
    KeyPairGenerator generator = KeyPairGenerator.getInstance("RSA");
    generator.initialize(2048);
    String pem =
        "-----BEGIN PRIVATE KEY-----\n"
            + Base64.getMimeEncoder()
                .encodeToString(generator.generateKeyPair().getPrivate().getEncoded())
            + "\n-----END PRIVATE KEY-----\n";
    ObjectNode key = JSON.createObjectNode();
    key.put("type", "service_account");
    key.put("project_id", "proj-123");
    key.put("private_key_id", "k1");
    key.put("private_key", pem);
    key.put("client_email", email);
    key.put("client_id", "1234567890");
    key.put("token_uri", "https://oauth2.googleapis.com/token");
    return key.toString();
  }

  private static GcsStorageProfile parse(String json) throws Exception {
    ObjectNode node = (ObjectNode) JSON.readTree(json);
    node.put("storageType", "gcs");
    if (!node.has("allowedLocations")) {
      node.putArray("allowedLocations").add("gs://lake/wh");
    }
    return (GcsStorageProfile) BACKENDS.parse("cat", node, "gs://lake/wh", sources, 60).profile();
  }

  @Test
  void parsesAFullProfile() throws Exception {
    GcsStorageProfile p =
        parse(
            "{\"credentialSource\":\"gcp\",\"gcsServiceAccount\":\"vend@proj-123.iam.gserviceaccount.com\","
                + "\"durationSeconds\":900,\"projectId\":\"other-proj\","
                + "\"vendCredentials\":\"on-request\"}");
    assertThat(p.storageType()).isEqualTo("GCS");
    assertThat(p.serviceAccount()).isEqualTo("vend@proj-123.iam.gserviceaccount.com");
    assertThat(p.durationSeconds()).isEqualTo(900);
    assertThat(p.projectId()).isEqualTo("other-proj");
    assertThat(p.vendOnlyOnRequest()).isTrue();
    assertThat(p.refreshConfig("v1/c/namespaces/n/tables/t/credentials"))
        .containsEntry(
            "gcs.oauth2.refresh-credentials-endpoint", "v1/c/namespaces/n/tables/t/credentials")
        .containsEntry("gcs.oauth2.refresh-credentials-enabled", "true");
  }

  @Test
  void theOptionalKeysDefault() throws Exception {
    GcsStorageProfile p = parse("{\"credentialSource\":\"gcp\"}");
    assertThat(p.projectId()).as("the source's, decided when the vendor opens").isNull();
    assertThat(p.serviceAccount()).isNull();
    assertThat(p.durationSeconds()).isEqualTo(GcsStorageProfile.DEFAULT_DURATION);
    assertThat(p.vendOnlyOnRequest()).isFalse();
  }

  @Test
  void misconfigurationNamesTheKey() {
    assertThatThrownBy(() -> parse("{}"))
        .hasMessageContaining("storageConfigInfo.credentialSource");
    assertThatThrownBy(() -> parse("{\"credentialSource\":\"nope\"}"))
        .hasMessageContaining("storageConfigInfo.credentialSource")
        .hasMessageContaining("unknown credential source 'nope'");
    assertThatThrownBy(() -> parse("{\"credentialSource\":\"rgw\"}"))
        .hasMessageContaining("storageConfigInfo.credentialSource")
        .hasMessageContaining("google-service-account");
    assertThatThrownBy(
            () ->
                parse("{\"credentialSource\":\"gcp\",\"gcsServiceAccount\":\"root@example.com\"}"))
        .hasMessageContaining("storageConfigInfo.gcsServiceAccount");
    assertThatThrownBy(() -> parse("{\"credentialSource\":\"gcp\",\"durationSeconds\":900}"))
        .hasMessageContaining("storageConfigInfo.durationSeconds needs gcsServiceAccount");
    String impersonating =
        "{\"credentialSource\":\"gcp\",\"gcsServiceAccount\":\"v@p-123456.iam.gserviceaccount.com\",";
    assertThatThrownBy(() -> parse(impersonating + "\"durationSeconds\":7200}"))
        .hasMessageContaining("storageConfigInfo.durationSeconds must be between 60 and 3600");
    assertThatThrownBy(() -> parse(impersonating + "\"durationSeconds\":30}"))
        .hasMessageContaining("storageConfigInfo.durationSeconds");
    assertThatThrownBy(() -> parse("{\"credentialSource\":\"gcp\",\"projectId\":\"Bad_Project\"}"))
        .hasMessageContaining("storageConfigInfo.projectId");
    assertThatThrownBy(
            () -> parse("{\"credentialSource\":\"gcp\",\"allowedLocations\":[\"s3://lake/wh\"]}"))
        .hasMessageContaining("storageConfigInfo.allowedLocations")
        .hasMessageContaining("[gs]");
  }

  @Test
  void tableLocationsMustFitOneBoundary() throws Exception {
    GcsStorageProfile p = parse("{\"credentialSource\":\"gcp\"}");
    assertThat(p.unusableLocations("gs://lake/wh/db/t", Map.of())).isEmpty();
    assertThat(p.unusableLocations("gs://lake/wh/db/t", Map.of("write.data.path", "gs://lake")))
        .hasValueSatisfying(
            why -> assertThat(why).contains("write.data.path is the root of bucket lake"));
  }

  @Test
  void sourceMistakesNameTheKey() throws Exception {
    assertThatThrownBy(() -> BACKENDS.parseSource("g", Map.of("type", "google-service-account")))
        .hasMessageContaining("storage.credentialSources.g.keyFile is required");
    assertThatThrownBy(
            () ->
                BACKENDS.parseSource(
                    "g",
                    Map.of("type", "google-service-account", "keyFile", "/nonexistent/k.json")))
        .hasMessageContaining("storage.credentialSources.g.keyFile: no readable file");
    Path notAKey = dir.resolve("not-a-key.json");
    Files.writeString(notAKey, "{\"type\":\"service_account\",\"client_email\":\"x\"}");
    assertThatThrownBy(
            () ->
                BACKENDS.parseSource(
                    "g", Map.of("type", "google-service-account", "keyFile", notAKey.toString())))
        .hasMessageContaining("storage.credentialSources.g.keyFile is not a service-account key");
    assertThatThrownBy(
            () ->
                BACKENDS.parseSource(
                    "g",
                    Map.of(
                        "type",
                        "google-workload-identity",
                        "credentialConfigFile",
                        keyFile.toString())))
        .hasMessageContaining("storage.credentialSources.g.credentialConfigFile")
        .hasMessageNotContaining("PRIVATE KEY");
    assertThatThrownBy(
            () ->
                BACKENDS.parseSource(
                    "g", Map.of("type", "google-adc", "endpoint", "http://u:p@host/?x=1")))
        .hasMessageContaining("storage.credentialSources.g.endpoint");
    assertThat(
            ((GoogleCredentialSource)
                    BACKENDS.parseSource(
                        "g", Map.of("type", "google-adc", "endpoint", "http://127.0.0.1:9")))
                .endpoint())
        .hasValue("http://127.0.0.1:9");
    Map<String, String> extra = new HashMap<>(Map.of("type", "google-adc", "keyFile", "x"));
    assertThatThrownBy(() -> BACKENDS.parseSource("g", extra))
        .hasMessageContaining("storage.credentialSources.g.keyFile");
  }
}
