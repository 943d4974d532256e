package dev.sluice.vending.s3;

import static dev.sluice.vending.s3.SessionPolicyGoldenTest.ACCESS_POINT;
import static dev.sluice.vending.s3.SessionPolicyGoldenTest.KEY_A;
import static dev.sluice.vending.s3.SessionPolicyGoldenTest.profile;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import dev.sluice.vending.AccessMode;
import dev.sluice.vending.StorageCredential;
import dev.sluice.vending.StorageTimeouts;
import dev.sluice.vending.VendingException;
import dev.sluice.vending.VendingRequest;
import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Cross-account role assumption: what Sluice sends to AWS STS, captured by a loopback stand-in for
 * STS that follows AWS's documented AssumeRole Query API (a form-encoded POST of {@code
 * Action=AssumeRole&Version=2011-06-15}, SigV4-signed for service {@code sts}; an {@code
 * AssumeRoleResponse} document, or an {@code ErrorResponse} with {@code AccessDenied} and 403 when
 * the role's trust policy requires an {@code sts:ExternalId} the request does not carry). AWS's own
 * STS is the one real counterpart that does not run here.
 */
class StsAssumeRoleRequestTest {
  private static final String EXTERNAL_ID = "sluice-prod-7f3a";
  private static final String ROLE = "arn:aws:iam::111122223333:role/SluiceTableAccess";
  private static final ObjectMapper JSON = new ObjectMapper();
  private HttpServer sts;
  private final List<Map<String, String>> calls = new CopyOnWriteArrayList<>();
  private final List<String> authorizations = new CopyOnWriteArrayList<>();

  @BeforeEach
  void start() throws IOException {
    sts = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
    sts.createContext("/", this::assumeRole);
    sts.start();
  }

  @AfterEach
  void stop() {
    sts.stop(0);
  }

  private void assumeRole(HttpExchange exchange) throws IOException {
    String body = new String(exchange.getRequestBody().readAllBytes(), StandardCharsets.UTF_8);
    Map<String, String> form = new TreeMap<>();
    for (String pair : body.split("&")) {
      int eq = pair.indexOf('=');
      form.put(
          URLDecoder.decode(pair.substring(0, eq), StandardCharsets.UTF_8),
          URLDecoder.decode(pair.substring(eq + 1), StandardCharsets.UTF_8));
    }
    calls.add(form);
    authorizations.add(String.valueOf(exchange.getRequestHeaders().getFirst("Authorization")));
    // The trust policy of the role in the other account: sts:ExternalId must match.
    boolean trusted =
        exchange.getRequestMethod().equals("POST")
            && "AssumeRole".equals(form.get("Action"))
            && "2011-06-15".equals(form.get("Version"))
            && ROLE.equals(form.get("RoleArn"))
            && EXTERNAL_ID.equals(form.get("ExternalId"));
    String xml =
        trusted
            ? "<AssumeRoleResponse xmlns=\"https://sts.amazonaws.com/doc/2011-06-15/\">"
                + "<AssumeRoleResult><Credentials><AccessKeyId>ASIAEXAMPLE</AccessKeyId>"
                + "<SecretAccessKey>session-secret</SecretAccessKey><SessionToken>session-token</SessionToken>"
                + "<Expiration>"
                + Instant.now().plus(1, ChronoUnit.HOURS).truncatedTo(ChronoUnit.SECONDS)
                + "</Expiration></Credentials><AssumedRoleUser>"
                + "<AssumedRoleId>AROAEXAMPLE:"
                + form.get("RoleSessionName")
                + "</AssumedRoleId><Arn>arn:aws:sts::111122223333:assumed-role/SluiceTableAccess/"
                + form.get("RoleSessionName")
                + "</Arn></AssumedRoleUser></AssumeRoleResult>"
                + "<ResponseMetadata><RequestId>c6104cbe-af31-11e0-8154-cbc7ccf896c7</RequestId>"
                + "</ResponseMetadata></AssumeRoleResponse>"
            : "<ErrorResponse xmlns=\"https://sts.amazonaws.com/doc/2011-06-15/\"><Error>"
                + "<Type>Sender</Type><Code>AccessDenied</Code><Message>User is not authorized to"
                + " perform: sts:AssumeRole on resource: "
                + ROLE
                + "</Message></Error><RequestId>c6104cbe-af31-11e0-8154-cbc7ccf896c8</RequestId>"
                + "</ErrorResponse>";
    byte[] bytes = xml.getBytes(StandardCharsets.UTF_8);
    exchange.getResponseHeaders().add("Content-Type", "text/xml");
    exchange.sendResponseHeaders(trusted ? 200 : 403, bytes.length);
    exchange.getResponseBody().write(bytes);
    exchange.close();
  }

  private StsCredentialVendor vendor(String extra) throws Exception {
    String endpoint = "http://127.0.0.1:" + sts.getAddress().getPort();
    S3StorageProfile p = profile(",\"stsEndpoint\":\"" + endpoint + "\"" + extra);
    return new StsCredentialVendor(
        p,
        StsCredentialVendor.client(
            p,
            AwsCredentialSource.staticKeys("aws", "AKIDSLUICE", "secret"),
            StorageTimeouts.Provider.DEFAULT),
        d -> {});
  }

  private static VendingRequest request(AccessMode mode) {
    return new VendingRequest(
        "s3://acme-lake/wh/sales/orders",
        List.of("s3://acme-lake/wh/sales/orders"),
        mode,
        "alice",
        new TreeMap<>(Map.of("principal", "alice")));
  }

  @Test
  void theExternalIdTheRoleArnAndTheScopedPolicyReachAssumeRole() throws Exception {
    StorageCredential credential;
    try (StsCredentialVendor vendor =
        vendor(
            ",\"externalId\":\""
                + EXTERNAL_ID
                + "\",\"currentKmsKey\":\""
                + KEY_A
                + "\",\"accessPoints\":{\"acme-lake\":\""
                + ACCESS_POINT
                + "\"},\"durationSeconds\":900")) {
      credential = vendor.vend(request(AccessMode.READ_WRITE)).get(0);
    }
    assertThat(calls).hasSize(1);
    Map<String, String> call = calls.get(0);
    assertThat(call)
        .containsEntry("Action", "AssumeRole")
        .containsEntry("Version", "2011-06-15")
        .containsEntry("RoleArn", ROLE)
        .containsEntry("ExternalId", EXTERNAL_ID)
        .containsEntry("DurationSeconds", "900")
        .containsEntry("RoleSessionName", "alice");
    // Signed by the catalog's own identity for STS in the catalog's region.
    assertThat(authorizations.get(0))
        .startsWith("AWS4-HMAC-SHA256 Credential=AKIDSLUICE/")
        .contains("/us-east-1/sts/aws4_request");
    // The policy STS receives is the golden one, whole.
    S3StorageProfile expected =
        profile(
            ",\"currentKmsKey\":\""
                + KEY_A
                + "\",\"accessPoints\":{\"acme-lake\":\""
                + ACCESS_POINT
                + "\"}");
    assertThat(JSON.readTree(call.get("Policy")))
        .isEqualTo(
            JSON.readTree(
                SessionPolicyGoldenTest.policy(
                    expected, List.of("s3://acme-lake/wh/sales/orders"), AccessMode.READ_WRITE)));
    AwsPolicyGrammar.check(JSON.readTree(call.get("Policy")), AwsPolicyGrammar.Kind.IDENTITY);
    Map<String, String> config = new LinkedHashMap<>(credential.config());
    assertThat(config)
        .containsEntry("s3.access-key-id", "ASIAEXAMPLE")
        .containsEntry("s3.session-token", "session-token")
        .containsEntry("s3.sse.type", "kms")
        .containsEntry("s3.sse.key", KEY_A)
        .containsEntry("s3.access-points.acme-lake", ACCESS_POINT)
        .containsEntry("client.region", "us-east-1");
    assertThat(config.toString()).doesNotContain(EXTERNAL_ID);
  }

  @Test
  void withoutTheExternalIdTheOtherAccountsRoleRefusesAndNothingIsVended() throws Exception {
    try (StsCredentialVendor vendor = vendor("")) {
      assertThatThrownBy(() -> vendor.vend(request(AccessMode.READ)))
          .isInstanceOfSatisfying(
              VendingException.class,
              e -> {
                assertThat(e.getMessage()).contains("STS AssumeRole answered HTTP 403");
                assertThat(e.getMessage()).doesNotContain(EXTERNAL_ID);
              });
    }
    assertThat(calls).hasSize(1);
    assertThat(calls.get(0)).doesNotContainKey("ExternalId");
  }

  @Test
  void aWrongExternalIdIsRefusedToo() throws Exception {
    try (StsCredentialVendor vendor = vendor(",\"externalId\":\"guessed\"")) {
      assertThatThrownBy(() -> vendor.vend(request(AccessMode.READ)))
          .hasMessageContaining("HTTP 403");
    }
    assertThat(calls.get(0)).containsEntry("ExternalId", "guessed");
  }
}
