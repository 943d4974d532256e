package dev.sluice.vending.s3;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;

class S3StorageProfileTest {
  private static final ObjectMapper JSON = new ObjectMapper();
  private static final List<String> ALLOWED = List.of("s3://b/wh");

  private static S3StorageProfile parse(String json) throws Exception {
    JsonNode node = JSON.readTree(json);
    return S3StorageProfile.parse("cat", node, ALLOWED, Set.of("rgw"));
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
    assertThatThrownBy(
            () ->
                S3StorageProfile.parse(
                    "cat",
                    JSON.readTree("{" + base + ",\"region\":\"r\"}"),
                    List.of("file:/tmp/x"),
                    Set.of("rgw")))
        .hasMessageContaining("storageConfigInfo.allowedLocations");
  }

  @Test
  void stsUnavailableNeedsNoRole() throws Exception {
    S3StorageProfile p =
        parse("{\"region\":\"r\",\"credentialSource\":\"rgw\",\"stsUnavailable\":true}");
    assertThat(p.stsUnavailable()).isTrue();
  }
}
