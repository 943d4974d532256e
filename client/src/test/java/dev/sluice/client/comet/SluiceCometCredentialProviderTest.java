package dev.sluice.client.comet;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.sluice.client.FakeSluice;
import dev.sluice.client.SluiceClient;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import org.apache.comet.cloud.s3.CometS3AccessMode;
import org.apache.comet.cloud.s3.CometS3CredentialContext;
import org.apache.comet.cloud.s3.CometS3Credentials;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

class SluiceCometCredentialProviderTest {
  private static final String BUCKET = "bkt";

  private FakeSluice sluice;
  private final AtomicLong now = new AtomicLong(System.currentTimeMillis());
  private SluiceCometCredentialProvider provider;

  @BeforeEach
  void start() throws Exception {
    sluice =
        new FakeSluice()
            .table("ns.a", true, "s3://bkt/wh/ns/a")
            .table("ns.a_eu", false, "s3://bkt/wh/ns/a_eu")
            .table("ns.b", false, "s3://bkt/wh/ns/b")
            .table("ns.pct", true, "s3://bkt/wh/ns/100%")
            .table("ns.far", true, "s3://other/wh/ns/far");
    provider = new SluiceCometCredentialProvider(SluiceClient::new, now::get);
    provider.initialize(sluice.hadoopProperties());
  }

  @AfterEach
  void stop() {
    provider.close();
    sluice.close();
  }

  private static CometS3CredentialContext read(String path) {
    return new CometS3CredentialContext(BUCKET, path, CometS3AccessMode.READ);
  }

  @Test
  void initializeDoesNoNetworkWorkAndNeedsNoReachableSluice() throws Exception {
    assertThat(sluice.totalCalls()).isZero();

    int closedPort;
    try (ServerSocket s = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
      closedPort = s.getLocalPort();
    }
    SluiceCometCredentialProvider p = new SluiceCometCredentialProvider();
    p.initialize(
        Map.of(
            "uri", "http://127.0.0.1:" + closedPort + "/api/catalog",
            "credential", "id:secret",
            "warehouse", "lake"));
    assertThatThrownBy(() -> p.getPolicyLocations(BUCKET))
        .isInstanceOf(CredentialUnavailableException.class)
        .hasMessageContaining("bucket 'bkt'")
        .hasMessageContaining("Sluice is unreachable");
  }

  @Test
  void initializeErrorsNameTheKeysNotTheValues() {
    SluiceCometCredentialProvider p = new SluiceCometCredentialProvider();
    Map<String, String> props = new HashMap<>(sluice.hadoopProperties());
    props.remove("fs.s3a.sluice.uri");
    props.put("fs.s3a.secret.key", "static-hush");
    assertThatThrownBy(() -> p.initialize(props))
        .hasMessageContaining("fs.s3a.sluice.uri")
        .hasMessageNotContaining(FakeSluice.CLIENT_SECRET)
        .hasMessageNotContaining("static-hush");

    props.put("fs.s3a.sluice.uri", sluice.uri().toString());
    props.put("fs.s3a.sluice.refresh-margin-seconds", "soon");
    assertThatThrownBy(() -> p.initialize(props))
        .hasMessageContaining("sluice.refresh-margin-seconds must be a whole number");
  }

  @Test
  void policyLocationsAreTheReadableOnesInTheBucketEncoded() throws Exception {
    assertThat(provider.getPolicyLocations(BUCKET)).containsExactly("wh/ns/a", "wh/ns/100%25");
    assertThat(provider.getPolicyLocations("other")).containsExactly("wh/ns/far");
    assertThat(provider.getPolicyLocations("empty")).isEmpty();
  }

  @Test
  void aLocationGetsItsTablesCredentialWithTheRealExpiry() throws Exception {
    long before = System.currentTimeMillis();
    CometS3Credentials c = provider.getCredentialsForPath(read("/wh/ns/a"));

    assertThat(c.getAccessKeyId()).isEqualTo(FakeSluice.accessKeyOf("ns.a", 1));
    assertThat(c.getSecretAccessKey()).isEqualTo(FakeSluice.secretOf("ns.a", 1));
    assertThat(c.getSessionToken()).isEqualTo(FakeSluice.sessionTokenOf("ns.a", 1));
    assertThat(c.getExpirationEpochMillis())
        .isBetween(before + 3_600_000, System.currentTimeMillis() + 3_600_000);

    // Files below it, and the encoded form of a location with a %, map to their tables.
    assertThat(
            provider.getCredentialsForPath(read("/wh/ns/a/data/part-0.parquet")).getAccessKeyId())
        .isEqualTo(FakeSluice.accessKeyOf("ns.a", 1));
    assertThat(provider.getCredentialsForPath(read("/wh/ns/100%25")).getAccessKeyId())
        .isEqualTo(FakeSluice.accessKeyOf("ns.pct", 1));
  }

  @Test
  void aSiblingWithACommonPrefixIsNotCovered() {
    assertThatThrownBy(() -> provider.getCredentialsForPath(read("/wh/ns/a_eu/data/f.parquet")))
        .isInstanceOf(CredentialUnavailableException.class)
        .hasMessage(
            "Sluice cannot vend an S3 credential for bucket 'bkt', path '/wh/ns/a_eu/data/f.parquet'"
                + " (s3://bkt/wh/ns/a_eu/data/f.parquet): no table the principal may read has a"
                + " location covering it (2 readable location(s) in the bucket): reading it needs"
                + " TABLE_READ_DATA on the table whose location holds it");
    assertThat(sluice.credentialCalls()).isZero();
  }

  @Test
  void theBucketRootIsRefusedWhenNoReadableTableIsThere() {
    assertThatThrownBy(() -> provider.getCredentialsForPath(read("/")))
        .hasMessageContaining("path '/'")
        .hasMessageContaining("no table the principal may read");
  }

  @Test
  void credentialsAreCachedUntilSixMinutesBeforeExpiry() throws Exception {
    sluice.clock(now::get).credentialLifetime("ns.a", 3_600_000);
    for (int i = 0; i < 10; i++) {
      provider.getCredentialsForPath(read("/wh/ns/a"));
      provider.getPolicyLocations(BUCKET);
    }
    assertThat(sluice.credentialCalls()).isEqualTo(1);
    assertThat(sluice.locationCalls()).isEqualTo(4); // one walk: 4 tables in bkt, one per page

    now.addAndGet(3_600_000 - 361_000); // a second before the 360 s margin
    CometS3Credentials last = provider.getCredentialsForPath(read("/wh/ns/a"));
    assertThat(last.getAccessKeyId()).isEqualTo(FakeSluice.accessKeyOf("ns.a", 1));
    // More than Comet's own 5-minute reuse margin left: Comet may keep it, and object_store's
    // retries of a request signed with it (up to 3 minutes) still carry a valid credential.
    assertThat(last.getExpirationEpochMillis() - now.get()).isGreaterThan(300_000);
    now.addAndGet(2_000);
    assertThat(provider.getCredentialsForPath(read("/wh/ns/a")).getAccessKeyId())
        .isEqualTo(FakeSluice.accessKeyOf("ns.a", 2));
    assertThat(sluice.credentialCalls()).isEqualTo(2);
  }

  @Test
  void theMarginIsAtMostHalfTheRemainingLifeAndAtLeastFifteenSeconds() {
    long t = 1_000_000;
    assertThat(provider.freshUntil(t, t + 3_600_000)).isEqualTo(t + 3_240_000);
    assertThat(provider.freshUntil(t, t + 600_000)).isEqualTo(t + 300_000); // half
    assertThat(provider.freshUntil(t, t + 40_000)).isEqualTo(t + 20_000); // half
    assertThat(provider.freshUntil(t, t + 20_000)).isEqualTo(t + 5_000); // 15 s left
    assertThat(provider.freshUntil(t, t + 10_000)).isEqualTo(t); // too short to keep
    assertThat(provider.freshUntil(t, t - 1)).isEqualTo(t);
    assertThat(provider.freshUntil(t, 0)).isEqualTo(t + 60_000); // no expiry reported
  }

  @Test
  void theMarginIsASettingThatCannotGoBelowFifteenSeconds() {
    long t = 1_000_000;
    Map<String, String> props = new HashMap<>(sluice.hadoopProperties());
    props.put("fs.s3a.sluice.refresh-margin-seconds", "120");
    provider.initialize(props);
    assertThat(provider.freshUntil(t, t + 3_600_000)).isEqualTo(t + 3_480_000);

    props.put("fs.s3a.sluice.refresh-margin-seconds", "0");
    provider.initialize(props);
    assertThat(provider.freshUntil(t, t + 3_600_000)).isEqualTo(t + 3_585_000);
  }

  @Test
  void aLongScanWithShortCredentialsIsAlwaysServedOneWithFifteenSecondsLeft() throws Exception {
    // 30 s credentials, Comet asking every half second for 5 minutes (it asks on every request
    // for a credential that expires within 5 minutes).
    sluice.clock(now::get).credentialLifetime("ns.a", 30_000);
    for (int i = 0; i < 600; i++) {
      CometS3Credentials c = provider.getCredentialsForPath(read("/wh/ns/a/data/f.parquet"));
      assertThat(c.getExpirationEpochMillis() - now.get())
          .as("life left at %d ms", i * 500)
          .isGreaterThanOrEqualTo(15_000);
      now.addAndGet(500);
    }
    // Each credential is served for its first 15 s: one Sluice call per 15 s of scan.
    assertThat(sluice.credentialCalls()).isBetween(20, 21);
  }

  @Test
  void aCredentialWithLessThanFifteenSecondsLeftIsHandedOutButNotKept() throws Exception {
    sluice.clock(now::get).credentialLifetime("ns.a", 10_000);
    for (int i = 1; i <= 3; i++) {
      assertThat(provider.getCredentialsForPath(read("/wh/ns/a")).getAccessKeyId())
          .isEqualTo(FakeSluice.accessKeyOf("ns.a", i));
    }
    assertThat(sluice.credentialCalls()).isEqualTo(3);
  }

  @Test
  void concurrentCallersShareOneSluiceCallPerKey() throws Exception {
    sluice.delay(100);
    int threads = 32;
    CountDownLatch go = new CountDownLatch(1);
    ExecutorService pool = Executors.newFixedThreadPool(threads);
    try {
      List<Future<CometS3Credentials>> results = new ArrayList<>();
      for (int i = 0; i < threads; i++) {
        String path = i % 2 == 0 ? "/wh/ns/a" : "/wh/ns/a/data/part-" + i + ".parquet";
        Callable<CometS3Credentials> call =
            () -> {
              go.await();
              return provider.getCredentialsForPath(read(path));
            };
        results.add(pool.submit(call));
      }
      go.countDown();
      for (Future<CometS3Credentials> f : results) {
        assertThat(f.get(30, TimeUnit.SECONDS).getAccessKeyId())
            .isEqualTo(FakeSluice.accessKeyOf("ns.a", 1));
      }
    } finally {
      pool.shutdownNow();
    }
    assertThat(sluice.credentialCalls()).isEqualTo(1);
    assertThat(sluice.locationCalls()).isEqualTo(4); // one walk over the 4 tables in bkt
    assertThat(sluice.tokenCalls()).isEqualTo(1);
  }

  @Test
  void aGrantAddedWhileTheJobRunsIsSeenWhenCometAsksAgainAfterAFailure() throws Exception {
    assertThat(provider.getPolicyLocations(BUCKET)).doesNotContain("wh/ns/b");
    assertThatThrownBy(() -> provider.getCredentialsForPath(read("/wh/ns/b/data/f.parquet")))
        .hasMessageContaining("no table the principal may read");

    sluice.grant("ns.b", true);
    // Comet re-asks once after the failure; the bridge does not answer from its cache.
    assertThat(provider.getPolicyLocations(BUCKET)).contains("wh/ns/b");
    assertThat(provider.getCredentialsForPath(read("/wh/ns/b")).getAccessKeyId())
        .isEqualTo(FakeSluice.accessKeyOf("ns.b", 1));
  }

  @Test
  void afterARevokeTheNextCredentialIsRefused() throws Exception {
    // Locations cached for an hour, so the refusal comes from the credentials call itself.
    Map<String, String> props = new HashMap<>(sluice.hadoopProperties());
    props.put("fs.s3a.sluice.locations-cache-seconds", "3600");
    provider.initialize(props);
    CometS3Credentials first = provider.getCredentialsForPath(read("/wh/ns/a"));
    sluice.grant("ns.a", false);

    // The cached credential is still served (it stays valid at the store until it expires)...
    assertThat(provider.getCredentialsForPath(read("/wh/ns/a")).getAccessKeyId())
        .isEqualTo(first.getAccessKeyId());
    // ...and the next one is refused, naming Sluice's reason, with no secret in the message.
    now.set(first.getExpirationEpochMillis() - 1_000);
    assertThatThrownBy(() -> provider.getCredentialsForPath(read("/wh/ns/a/f.parquet")))
        .isInstanceOf(CredentialUnavailableException.class)
        .hasMessage(
            "Sluice cannot vend an S3 credential for bucket 'bkt', path '/wh/ns/a/f.parquet'"
                + " (s3://bkt/wh/ns/a/f.parquet): table ns.a: loadCredentials for ns.a: Sluice"
                + " answered HTTP 403: ForbiddenException: Principal 'engine' is not authorized"
                + " for TABLE_READ_DATA on ns.a")
        .satisfies(e -> assertNoSecrets(e.getMessage()));
    // The refusal also dropped the cached locations: Comet's re-ask sees that ns.a is gone, and
    // the path now belongs to no readable table.
    int walks = sluice.locationCalls();
    assertThat(provider.getPolicyLocations(BUCKET)).doesNotContain("wh/ns/a");
    assertThat(sluice.locationCalls()).isGreaterThan(walks);
    assertThatThrownBy(() -> provider.getCredentialsForPath(read("/wh/ns/a/f.parquet")))
        .hasMessageContaining("no table the principal may read has a location covering it");
  }

  @Test
  void sluiceDownIsAnErrorNamingTheReasonNeverAFallback() {
    sluice.failNext(1_000, 503);
    assertThatThrownBy(() -> provider.getCredentialsForPath(read("/wh/ns/a")))
        .isInstanceOf(CredentialUnavailableException.class)
        .hasMessageContaining("bucket 'bkt', path '/wh/ns/a'")
        .hasMessageContaining("HTTP 503")
        .satisfies(e -> assertNoSecrets(e.getMessage()));
  }

  @Test
  void aRefusedListingNamesThePrivilegeThatHelps() {
    // Sluice's 403 for a principal with no standing in the catalog names no privilege.
    sluice.failNext(1_000, 403);
    assertThatThrownBy(() -> provider.getPolicyLocations(BUCKET))
        .isInstanceOf(CredentialUnavailableException.class)
        .hasMessageStartingWith("Sluice cannot list the readable table locations in bucket 'bkt'")
        .hasMessageContaining("HTTP 403")
        .hasMessageEndingWith(
            ": reading through Sluice needs TABLE_READ_DATA on the table in this catalog");
    assertThatThrownBy(() -> provider.getCredentialsForPath(read("/wh/ns/a")))
        .hasMessageContaining("cannot list readable table locations")
        .hasMessageEndingWith(
            ": reading through Sluice needs TABLE_READ_DATA on the table in this catalog");
  }

  @Test
  void invalidPathsAreRefusedBeforeAnySluiceCall() {
    assertThatThrownBy(() -> provider.getCredentialsForPath(read("/wh/../ns/a")))
        .hasMessageContaining("path '/wh/../ns/a'")
        .hasMessageContaining("'..' segment");
    assertThat(sluice.totalCalls()).isZero();
  }

  @Test
  void anUninitializedProviderSaysSo() {
    SluiceCometCredentialProvider p = new SluiceCometCredentialProvider();
    assertThatThrownBy(() -> p.getPolicyLocations(BUCKET))
        .isInstanceOf(IllegalStateException.class)
        .hasMessageContaining("not initialized");
  }

  private static void assertNoSecrets(String message) {
    assertThat(message)
        .doesNotContain(FakeSluice.CLIENT_SECRET)
        .doesNotContain("SK-secret")
        .doesNotContain("ST-token")
        .doesNotContain("tok-");
  }
}
