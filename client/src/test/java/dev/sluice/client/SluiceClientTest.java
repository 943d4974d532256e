package dev.sluice.client;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.URI;
import java.net.http.HttpClient;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

class SluiceClientTest {
  private FakeSluice sluice;
  private final AtomicLong now = new AtomicLong(1_000_000);

  @BeforeEach
  void start() throws Exception {
    sluice = new FakeSluice();
  }

  @AfterEach
  void stop() {
    sluice.close();
  }

  private SluiceClient client() {
    return new SluiceClient(
        SluiceClientConfig.fromProperties(sluice.hadoopProperties()),
        HttpClient.newHttpClient(),
        now::get);
  }

  @Test
  void loadCredentialsUsesThePrefixAndIcebergsNamespaceEncoding() throws Exception {
    sluice.table("a.b.t x", true, "s3://bkt/wh/a/b/t x");

    List<VendedCredential> vended =
        client().loadCredentials(new TableRef(List.of("a", "b"), "t x"));

    assertThat(vended).hasSize(1);
    VendedCredential c = vended.get(0);
    assertThat(c.prefix()).isEqualTo("s3://bkt/wh/a/b/t x");
    assertThat(c.accessKeyId()).isEqualTo(FakeSluice.accessKeyOf("a.b.t x", 1));
    assertThat(c.secretAccessKey()).isEqualTo(FakeSluice.secretOf("a.b.t x", 1));
    assertThat(c.sessionToken()).isEqualTo(FakeSluice.sessionTokenOf("a.b.t x", 1));
    assertThat(c.expiresAtMillis()).isGreaterThan(System.currentTimeMillis() + 3_000_000);
    assertThat(c.toString()).doesNotContain(c.secretAccessKey(), c.sessionToken());
    assertThat(sluice.requestLines())
        .contains("GET /api/catalog/v1/config?warehouse=lake-warehouse")
        .contains("GET /api/catalog/v1/lake/namespaces/a%1Fb/tables/t+x/credentials");
  }

  @Test
  void oneTokenAndOneConfigCallServeManyRequestsUntilTheTokenNearsExpiry() throws Exception {
    sluice.table("ns.t", true, "s3://bkt/wh/ns/t").tokenLifetimeSeconds(600);
    SluiceClient client = client();

    for (int i = 0; i < 5; i++) {
      client.loadCredentials(TableRef.parse("ns.t"));
    }
    assertThat(sluice.tokenCalls()).isEqualTo(1);
    assertThat(sluice.configCalls()).isEqualTo(1);

    now.addAndGet(600_000 - 60_000 - 1); // just before the renewal point (a minute early)
    client.loadCredentials(TableRef.parse("ns.t"));
    assertThat(sluice.tokenCalls()).isEqualTo(1);

    now.addAndGet(1);
    client.loadCredentials(TableRef.parse("ns.t"));
    assertThat(sluice.tokenCalls()).isEqualTo(2);
  }

  @Test
  void a401RenewsTheTokenOnce() throws Exception {
    sluice.table("ns.t", true, "s3://bkt/wh/ns/t");
    SluiceClient client = client();
    client.loadCredentials(TableRef.parse("ns.t"));

    sluice.revokeTokens();
    client.loadCredentials(TableRef.parse("ns.t"));

    assertThat(sluice.tokenCalls()).isEqualTo(2);
  }

  @Test
  void readableLocationsFollowEveryPage() throws Exception {
    sluice
        .table("ns.a", true, "s3://bkt/wh/ns/a", "s3://bkt/data/a")
        .table("ns.b", false, "s3://bkt/wh/ns/b")
        .table("ns.c", true, "s3://bkt/wh/ns/c")
        .table("ns.other", true, "s3://elsewhere/wh/ns/other");

    List<ReadableTable> readable = client().readableTableLocations("bkt");

    assertThat(readable)
        .containsExactly(
            new ReadableTable(
                TableRef.parse("ns.a"), List.of("s3://bkt/wh/ns/a", "s3://bkt/data/a")),
            new ReadableTable(TableRef.parse("ns.c"), List.of("s3://bkt/wh/ns/c")));
    assertThat(sluice.locationCalls()).isEqualTo(3); // a, b (filtered: empty page), c
    assertThat(sluice.requestLines())
        .contains("GET /api/catalog/v1/lake/readable-table-locations?bucket=bkt&pageSize=1000")
        .contains(
            "GET /api/catalog/v1/lake/readable-table-locations?bucket=bkt&pageSize=1000&pageToken=2");
  }

  @Test
  void transientFailuresAreRetried() throws Exception {
    sluice.table("ns.t", true, "s3://bkt/wh/ns/t");
    SluiceClient client = client();
    client.loadCredentials(TableRef.parse("ns.t"));

    sluice.failNext(2, 503);
    assertThat(client.loadCredentials(TableRef.parse("ns.t"))).hasSize(1);

    sluice.failNext(3, 503);
    assertThatThrownBy(() -> client.loadCredentials(TableRef.parse("ns.t")))
        .isInstanceOf(SluiceException.class)
        .hasMessageContaining("HTTP 503")
        .hasMessageContaining("injected failure");
  }

  @Test
  void refusalsCarrySluicesReasonAndNoSecret() {
    sluice.table("ns.secret", false, "s3://bkt/wh/ns/secret");
    SluiceClient client = client();

    assertThatThrownBy(() -> client.loadCredentials(TableRef.parse("ns.secret")))
        .isInstanceOfSatisfying(SluiceException.class, e -> assertThat(e.status()).isEqualTo(403))
        .hasMessage(
            "loadCredentials for ns.secret: Sluice answered HTTP 403: ForbiddenException: "
                + "Principal 'engine' is not authorized for TABLE_READ_DATA on ns.secret");
    assertThatThrownBy(() -> client.loadCredentials(TableRef.parse("ns.missing")))
        .isInstanceOfSatisfying(SluiceException.class, e -> assertThat(e.isRefusal()).isTrue())
        .hasMessageContaining("NoSuchTableException");
  }

  @Test
  void aWrongClientSecretIsRefusedWithoutEchoingIt() {
    SluiceClient client =
        new SluiceClient(
            SluiceClientConfig.of(sluice.uri(), "w", FakeSluice.CLIENT_ID, "wrong-hush"));

    assertThatThrownBy(() -> client.loadCredentials(TableRef.parse("ns.t")))
        .isInstanceOfSatisfying(SluiceException.class, e -> assertThat(e.status()).isEqualTo(401))
        .hasMessageContaining("OAuth2 token for client engine")
        .hasMessageContaining("invalid_client: unknown client or wrong secret")
        .hasMessageNotContaining("wrong-hush");
  }

  @Test
  void anUnreachableSluiceIsStatusZero() throws Exception {
    int port;
    try (ServerSocket s = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
      port = s.getLocalPort();
    }
    SluiceClient client =
        new SluiceClient(
            SluiceClientConfig.of(
                URI.create("http://127.0.0.1:" + port + "/api/catalog"),
                "w",
                "id",
                FakeSluice.CLIENT_SECRET));

    assertThatThrownBy(() -> client.loadCredentials(TableRef.parse("ns.t")))
        .isInstanceOfSatisfying(SluiceException.class, e -> assertThat(e.status()).isZero())
        .hasMessageContaining("Sluice is unreachable (ConnectException)")
        .hasMessageNotContaining(FakeSluice.CLIENT_SECRET);
  }

  @Test
  void aCatalogThatVendsNothingIsAnError() {
    sluice.table("ns.t", true, "s3://bkt/wh/ns/t").vendsNothing("ns.t");

    assertThatThrownBy(() -> client().loadCredentials(TableRef.parse("ns.t")))
        .isInstanceOf(SluiceException.class)
        .hasMessage(
            "Sluice vends no storage credential for table ns.t (its catalog does not vend "
                + "credentials)");
  }

  @Test
  void reasonsComeFromIcebergAndOAuthErrorBodies() {
    assertThat(SluiceClient.reason("{\"error\":{\"message\":\"m\",\"type\":\"T\"}}"))
        .isEqualTo(": T: m");
    assertThat(SluiceClient.reason("{\"error\":\"invalid_scope\",\"error_description\":\"d\"}"))
        .isEqualTo(": invalid_scope: d");
    assertThat(SluiceClient.reason("<html>not json</html>")).isEmpty();
    assertThat(SluiceClient.reason("{\"error\":{\"message\":\"" + "x".repeat(1000) + "\"}}"))
        .hasSizeLessThan(420);
  }
}
