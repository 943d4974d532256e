package dev.sluice.vending.s3;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.sun.net.httpserver.HttpServer;
import dev.sluice.StandardBackends;
import dev.sluice.client.aws.WebIdentityCredentialsProvider;
import dev.sluice.client.aws.WebIdentitySettings;
import dev.sluice.vending.StorageBackends;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import software.amazon.awssdk.core.exception.SdkClientException;

/** The web-identity source of the server YAML, wired to the client module's provider. */
class AwsCredentialSourceTest {
  private static final StorageBackends BACKENDS = StandardBackends.create();

  private static Map<String, String> webIdentity(String... more) {
    Map<String, String> fields = new HashMap<>();
    fields.put("type", "web-identity");
    fields.put("roleArn", "arn:aws:iam::123456789012:role/sluice");
    fields.put("webIdentityTokenFile", "/var/run/secrets/token");
    for (int i = 0; i < more.length; i += 2) {
      fields.put(more[i], more[i + 1]);
    }
    return fields;
  }

  private static AwsCredentialSource parse(Map<String, String> fields) {
    return (AwsCredentialSource) BACKENDS.parseSource("irsa", fields);
  }

  @Test
  void theOptionalKeysDefault() {
    WebIdentitySettings s = parse(webIdentity()).webIdentity();
    assertThat(s.roleArn()).isEqualTo("arn:aws:iam::123456789012:role/sluice");
    assertThat(s.webIdentityTokenFile()).isEqualTo(Path.of("/var/run/secrets/token"));
    assertThat(s.sessionName()).isEqualTo("sluice-catalog");
    assertThat(s.maxAttempts()).isEqualTo(5);
    assertThat(s.minTtl()).isEqualTo(Duration.ofSeconds(300));
    assertThat(s.refreshJitter()).isEqualTo(Duration.ofSeconds(60));
    assertThat(s.stsEndpoint()).isNull();
  }

  @Test
  void theOptionalKeysAreRead() {
    WebIdentitySettings s =
        parse(
                webIdentity(
                    "maxAttempts", "8",
                    "minTtlSeconds", "600",
                    "refreshJitterSeconds", "0",
                    "stsEndpoint", "https://sts.eu-west-1.amazonaws.com"))
            .webIdentity();
    assertThat(s.maxAttempts()).isEqualTo(8);
    assertThat(s.minTtl()).isEqualTo(Duration.ofSeconds(600));
    assertThat(s.refreshJitter()).isZero();
    assertThat(s.stsEndpoint()).hasToString("https://sts.eu-west-1.amazonaws.com");
  }

  @Test
  void badValuesNameTheKey() {
    assertThatThrownBy(() -> parse(webIdentity("maxAttempts", "many")))
        .hasMessage("storage.credentialSources.irsa.maxAttempts must be an integer, got: many");
    assertThatThrownBy(() -> parse(webIdentity("maxAttempts", "0")))
        .hasMessage("storage.credentialSources.irsa.maxAttempts must be 1 to 20, got: 0");
    assertThatThrownBy(() -> parse(webIdentity("minTtlSeconds", "-1")))
        .hasMessage("storage.credentialSources.irsa.minTtlSeconds must be >= 0, got: -1");
    assertThatThrownBy(() -> parse(webIdentity("refreshJitterSeconds", "7200")))
        .hasMessage(
            "storage.credentialSources.irsa.refreshJitterSeconds must be 0 to 3600, got: 7200");
    assertThatThrownBy(() -> parse(webIdentity("stsEndpoint", "sts.example.com")))
        .hasMessageStartingWith("storage.credentialSources.irsa.stsEndpoint");
    assertThatThrownBy(() -> parse(webIdentity("stsEndpoint", "http://bad host")))
        .hasMessageStartingWith("storage.credentialSources.irsa.stsEndpoint");
    assertThatThrownBy(() -> parse(webIdentity("roleArn", "sluice")))
        .hasMessageStartingWith("storage.credentialSources.irsa.roleArn");
    assertThatThrownBy(() -> parse(webIdentity("region", "eu-west-1")))
        .hasMessageContaining("Unknown config key: storage.credentialSources.irsa.region");
    // The tuning keys belong to web identity only.
    assertThatThrownBy(
            () ->
                BACKENDS.parseSource(
                    "k",
                    Map.of(
                        "type",
                        "static",
                        "accessKeyId",
                        "A",
                        "secretAccessKey",
                        "S",
                        "maxAttempts",
                        "3")))
        .hasMessageContaining("Unknown config key: storage.credentialSources.k.maxAttempts");
  }

  @Test
  void theProviderIsTheThrottleSafeOneWithTheYamlSettings(@TempDir Path dir) throws Exception {
    Path token = Files.writeString(dir.resolve("token"), "server-token");
    AtomicInteger calls = new AtomicInteger();
    HttpServer sts =
        HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
    sts.createContext(
        "/",
        exchange -> {
          calls.incrementAndGet();
          exchange.getRequestBody().readAllBytes();
          byte[] body =
              ("<ErrorResponse><Error><Type>Sender</Type><Code>Throttling</Code>"
                      + "<Message>Rate exceeded</Message></Error><RequestId>r</RequestId>"
                      + "</ErrorResponse>")
                  .getBytes(StandardCharsets.UTF_8);
          exchange.sendResponseHeaders(400, body.length);
          try (OutputStream out = exchange.getResponseBody()) {
            out.write(body);
          }
        });
    sts.start();
    try {
      AwsCredentialSource source =
          parse(
              webIdentity(
                  "roleArn",
                  "arn:aws:iam::123456789012:role/server-wiring",
                  "webIdentityTokenFile",
                  token.toString(),
                  "maxAttempts",
                  "2",
                  "stsEndpoint",
                  "http://127.0.0.1:" + sts.getAddress().getPort()));
      assertThat(source.provider()).isInstanceOf(WebIdentityCredentialsProvider.class);
      assertThat(source.toString()).doesNotContain("server-token");
      // The YAML's endpoint and attempts reach STS; throttling past them is an error.
      assertThatThrownBy(() -> source.provider().resolveCredentials())
          .isInstanceOf(SdkClientException.class)
          .hasMessageContaining("arn:aws:iam::123456789012:role/server-wiring")
          .hasMessageContaining("after 2 attempt(s)")
          .hasMessageNotContaining("server-token");
      assertThat(calls).hasValue(2);
    } finally {
      sts.stop(0);
    }
  }
}
