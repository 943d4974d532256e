package dev.sluice.vending.s3;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.sluice.StandardBackends;
import dev.sluice.vending.CredentialSource;
import dev.sluice.vending.Delegation;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class S3StorageProfileTest {
  private static final ObjectMapper JSON = new ObjectMapper();
  private static final List<String> ALLOWED = List.of("s3://b/wh");

  private static final Map<String, CredentialSource> SOURCES =
      Map.of("rgw", AwsCredentialSource.staticKeys("rgw", "AKID", "secret"));

  private static S3StorageProfile parse(String json) throws Exception {
    return parse(json, ALLOWED);
  }

  /** Through the registry, as a catalog definition is parsed. */
  private static S3StorageProfile parse(String json, List<String> allowed) throws Exception {
    JsonNode node = JSON.readTree(json);
    ((ObjectNode) node).put("storageType", "s3");
    ArrayNode locations = ((ObjectNode) node).putArray("allowedLocations");
    allowed.forEach(locations::add);
    return (S3StorageProfile)
        StandardBackends.create()
            .parse("cat", node, "s3://b/wh", SOURCES, S3StorageProfile.MIN_DURATION)
            .profile();
  }

  @Test
  void parsesAFullProfile() throws Exception {
    S3StorageProfile p =
        parse(
            "{\"storageType\":\"S3\",\"roleArn\":\"arn:aws:iam:::role/x\",\"region\":\"us-east-1\","
                + "\"endpoint\":\"http://127.0.0.1:7480\",\"pathStyleAccess\":true,\"credentialSource\":\"rgw\","
                + "\"durationSeconds\":900,\"sessionTags\":[\"principal\",\"table\"],\"vendCredentials\":\"on-request\"}");
    assertThat(p.durationSeconds()).isEqualTo(900);
    assertThat(p.effectiveStsEndpoint()).isEqualTo("http://127.0.0.1:7480");
    assertThat(p.vendOnlyOnRequest()).isTrue();
    assertThat(p.sessionNameFields()).containsExactly("principal");
    assertThat(p.sessionTagFields()).containsExactly("principal", "table");
  }

  @Test
  void misconfigurationNamesTheKey() {
    String base = "\"roleArn\":\"arn:aws:iam:::role/x\",\"credentialSource\":\"rgw\"";
    assertThatThrownBy(() -> parse("{" + base + "}"))
        .hasMessageContaining("storageConfigInfo.region");
    assertThatThrownBy(() -> parse("{" + base + ",\"region\":\"r\",\"durationSeconds\":60}"))
        .hasMessageContaining("storageConfigInfo.durationSeconds");
    assertThatThrownBy(() -> parse("{" + base + ",\"region\":\"r\",\"durationSeconds\":50000}"))
        .hasMessageContaining("storageConfigInfo.durationSeconds");
    assertThatThrownBy(
            () -> parse("{\"roleArn\":\"a\",\"region\":\"r\",\"credentialSource\":\"nope\"}"))
        .hasMessageContaining("storageConfigInfo.credentialSource")
        .hasMessageContaining("nope");
    assertThatThrownBy(() -> parse("{\"region\":\"r\",\"credentialSource\":\"rgw\"}"))
        .hasMessageContaining("storageConfigInfo.roleArn");
    assertThatThrownBy(
            () -> parse("{" + base + ",\"region\":\"r\",\"readPolicyTemplate\":\"{{.X}}\"}"))
        .hasMessageContaining("storageConfigInfo.readPolicyTemplate");
    assertThatThrownBy(() -> parse("{" + base + ",\"region\":\"r\",\"sessionName\":[\"email\"]}"))
        .hasMessageContaining("storageConfigInfo.sessionName");
    assertThatThrownBy(
            () -> parse("{" + base + ",\"region\":\"r\",\"vendCredentials\":\"sometimes\"}"))
        .hasMessageContaining("storageConfigInfo.vendCredentials");
    assertThatThrownBy(() -> parse("{" + base + ",\"region\":\"r\"}", List.of("file:/tmp/x")))
        .hasMessageContaining("storageConfigInfo.allowedLocations");
    assertThatThrownBy(() -> parse("{" + base + ",\"region\":\"r\"}", List.of("s3:///wh")))
        .hasMessageContaining("storageConfigInfo.allowedLocations");
  }

  @Test
  void stsUnavailableNeedsNoRoleAndOffersNoDelegation() throws Exception {
    S3StorageProfile p =
        parse("{\"region\":\"r\",\"credentialSource\":\"rgw\",\"stsUnavailable\":true}");
    assertThat(p.stsUnavailable()).isTrue();
    assertThat(p.offered()).isEmpty();
  }

  @Test
  void delegationChoosesVendingSigningOrBoth() throws Exception {
    String role =
        "\"roleArn\":\"arn:aws:iam:::role/x\",\"region\":\"r\",\"credentialSource\":\"rgw\"";
    assertThat(parse("{" + role + "}").offered())
        .containsExactly(Delegation.Kind.VENDED_CREDENTIALS);
    assertThat(parse("{" + role + ",\"delegation\":[\"remote-signing\"]}").offered())
        .containsExactly(Delegation.Kind.REMOTE_SIGNING);
    assertThat(
            parse("{" + role + ",\"delegation\":[\"remote-signing\",\"vended-credentials\"]}")
                .offered())
        .containsExactlyInAnyOrder(
            Delegation.Kind.VENDED_CREDENTIALS, Delegation.Kind.REMOTE_SIGNING);
    assertThat(parse("{" + role + ",\"delegation\":[]}").offered()).isEmpty();
    // Without a role or STS it signs with the credential source, where the operator accepted it.
    S3StorageProfile keysOnly =
        parse(
            "{\"region\":\"r\",\"credentialSource\":\"rgw\",\"stsUnavailable\":true,"
                + "\"delegation\":[\"remote-signing\"],\"unscopedSigning\":true}");
    assertThat(keysOnly.scopesSigning()).isFalse();
    assertThat(keysOnly.offered()).containsExactly(Delegation.Kind.REMOTE_SIGNING);
    assertThat(keysOnly.signingConfig("v1/cat/namespaces/ns/tables/t/sign"))
        .containsEntry("s3.remote-signing-enabled", "true")
        .containsEntry("s3.signer.endpoint", "v1/cat/namespaces/ns/tables/t/sign")
        .containsEntry("signer.endpoint", "v1/cat/namespaces/ns/tables/t/sign")
        .containsEntry("client.region", "r")
        .doesNotContainKeys("s3.access-key-id", "s3.secret-access-key", "s3.session-token");
  }

  @Test
  void aBadDelegationNamesTheKey() {
    String role =
        "\"roleArn\":\"arn:aws:iam:::role/x\",\"region\":\"r\",\"credentialSource\":\"rgw\"";
    for (String bad :
        List.of(
            "\"delegation\":\"remote-signing\"",
            "\"delegation\":[\"presigned-urls\"]",
            "\"delegation\":[\"remote-signing\",\"remote-signing\"]",
            "\"delegation\":[1]")) {
      assertThatThrownBy(() -> parse("{" + role + "," + bad + "}"))
          .as(bad)
          .hasMessageContaining("storageConfigInfo.delegation");
    }
    assertThatThrownBy(
            () ->
                parse(
                    "{\"region\":\"r\",\"credentialSource\":\"rgw\",\"stsUnavailable\":true,"
                        + "\"delegation\":[\"vended-credentials\"]}"))
        .hasMessageContaining("storageConfigInfo.delegation")
        .hasMessageContaining("stsUnavailable");
    assertThatThrownBy(
            () ->
                parse(
                    "{\"region\":\"r\",\"credentialSource\":\"rgw\","
                        + "\"delegation\":[\"vended-credentials\",\"remote-signing\"]}"))
        .hasMessageContaining("storageConfigInfo.roleArn");
  }

  @Test
  void signingThatTheStoreCannotScopeNeedsTheOperatorsConsent() throws Exception {
    for (String unscoped :
        List.of(
            "{\"region\":\"r\",\"credentialSource\":\"rgw\",\"stsUnavailable\":true,"
                + "\"delegation\":[\"remote-signing\"]}",
            "{\"region\":\"r\",\"credentialSource\":\"rgw\",\"delegation\":[\"remote-signing\"]}")) {
      assertThatThrownBy(() -> parse(unscoped))
          .as(unscoped)
          .hasMessageContaining("storageConfigInfo.unscopedSigning")
          .hasMessageContaining("no roleArn with STS");
    }
    S3StorageProfile scoped =
        parse(
            "{\"roleArn\":\"arn:aws:iam:::role/x\",\"region\":\"r\",\"credentialSource\":\"rgw\","
                + "\"delegation\":[\"remote-signing\"]}");
    assertThat(scoped.scopesSigning()).isTrue();
    assertThat(scoped.signatureWindow()).isEqualTo(new SignatureWindow(30, 900));
  }

  @Test
  void theSignatureWindowIsBoundedByTheStoresSkewWindow() throws Exception {
    String role =
        "\"roleArn\":\"arn:aws:iam:::role/x\",\"region\":\"r\",\"credentialSource\":\"rgw\"";
    S3StorageProfile p =
        parse("{" + role + ",\"signatureLifetimeSeconds\":5,\"storeClockSkewSeconds\":300}");
    assertThat(p.signatureWindow().signingTime(java.time.Instant.ofEpochSecond(1000)))
        .isEqualTo(java.time.Instant.ofEpochSecond(1000 - 295));
    for (String bad :
        List.of(
            "\"signatureLifetimeSeconds\":0",
            "\"signatureLifetimeSeconds\":901",
            "\"storeClockSkewSeconds\":30",
            "\"signatureLifetimeSeconds\":\"30\"")) {
      assertThatThrownBy(() -> parse("{" + role + "," + bad + "}"))
          .as(bad)
          .hasMessageContaining("storageConfigInfo.");
    }
  }

  @Test
  void aStoreAtAnEndpointOfItsOwnIsPathStyleUnlessDeclaredOtherwise() throws Exception {
    String role =
        "\"roleArn\":\"arn:aws:iam:::role/x\",\"region\":\"r\",\"credentialSource\":\"rgw\"";
    assertThat(parse("{" + role + "}").pathStyleAccess()).as("AWS").isFalse();
    assertThat(parse("{" + role + ",\"endpoint\":\"http://rgw:7480\"}").pathStyleAccess()).isTrue();
    assertThat(
            parse("{" + role + ",\"endpoint\":\"http://rgw:7480\",\"pathStyleAccess\":false}")
                .pathStyleAccess())
        .isFalse();
  }

  @Test
  void equalDefinitionsAreEqualProfiles() throws Exception {
    // The profile is the identity of its vendor and cached credentials: parsing the same stored
    // definition twice (every catalog resolve) must not open a new vendor.
    String json =
        "{\"roleArn\":\"arn:aws:iam:::role/x\",\"region\":\"r\",\"credentialSource\":\"rgw\","
            + "\"readPolicyTemplate\":\"{\\\"Version\\\":\\\"2012-10-17\\\",\\\"Statement\\\":[]}\"}";
    assertThat(parse(json)).isEqualTo(parse(json)).hasSameHashCodeAs(parse(json));
    assertThat(parse(json))
        .isNotEqualTo(parse(json.replace("\"region\":\"r\"", "\"region\":\"r2\"")));
  }
}
