package dev.sluice.client;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.auth.credentials.AwsCredentials;
import software.amazon.awssdk.auth.credentials.AwsSessionCredentials;
import software.amazon.awssdk.core.exception.SdkClientException;

class SluiceCredentialsProviderTest {
  private static final long T0 = 1_000_000_000L;
  private static final long HOUR = 3_600_000;

  private final AtomicLong now = new AtomicLong(T0);
  private final AtomicInteger fetches = new AtomicInteger();
  private final AtomicReference<SluiceException> failure = new AtomicReference<>();
  private final AtomicLong lifetime = new AtomicLong(HOUR);
  private volatile CountDownLatch gate;

  private VendedCredential fetch() throws SluiceException {
    int n = fetches.incrementAndGet();
    CountDownLatch g = gate;
    if (g != null) {
      try {
        g.await(5, TimeUnit.SECONDS);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      }
    }
    if (failure.get() != null) {
      throw failure.get();
    }
    return new VendedCredential(
        "s3://bkt/wh/ns/t",
        "AK" + n,
        "SK-secret-" + n,
        "ST-token-" + n,
        now.get() + lifetime.get());
  }

  /** Margin 120 s; jitter: always the largest allowed value, to pin the refresh time down. */
  private SluiceCredentialsProvider provider(long maxJitterMillis) {
    return new SluiceCredentialsProvider(
        "table ns.t",
        this::fetch,
        now::get,
        Duration.ofSeconds(120),
        bound -> Math.min(bound, maxJitterMillis));
  }

  private static String keyOf(AwsCredentials c) {
    return c.accessKeyId();
  }

  @Test
  void servesTheCredentialWithItsExpiryAndRefreshesAheadOfIt() {
    SluiceCredentialsProvider p = provider(60_000);

    AwsCredentials first = p.resolveCredentials();
    assertThat(first).isInstanceOf(AwsSessionCredentials.class);
    assertThat(((AwsSessionCredentials) first).sessionToken()).isEqualTo("ST-token-1");
    assertThat(((AwsSessionCredentials) first).expirationTime())
        .hasValueSatisfying(t -> assertThat(t.toEpochMilli()).isEqualTo(T0 + HOUR));

    // Refresh at expiry - 120 s margin - 60 s jitter.
    now.set(T0 + HOUR - 180_000 - 1);
    assertThat(keyOf(p.resolveCredentials())).isEqualTo("AK1");
    now.set(T0 + HOUR - 180_000);
    assertThat(keyOf(p.resolveCredentials())).isEqualTo("AK2");
    assertThat(fetches.get()).isEqualTo(2);
  }

  @Test
  void jitterSpreadsTheRefreshButNeverIntoTheFirstHalfOfTheLifetime() {
    // A 100 s credential: the margin is capped at half the lifetime; no room is left for jitter.
    lifetime.set(100_000);
    SluiceCredentialsProvider p = provider(60_000);
    p.resolveCredentials();
    now.set(T0 + 50_000 - 1);
    assertThat(keyOf(p.resolveCredentials())).isEqualTo("AK1");
    now.set(T0 + 50_000);
    assertThat(keyOf(p.resolveCredentials())).isEqualTo("AK2");
  }

  @Test
  void realJitterStaysWithinItsBound() {
    for (int i = 0; i < 50; i++) {
      AtomicLong clock = new AtomicLong(T0);
      AtomicInteger n = new AtomicInteger();
      SluiceCredentialsProvider p =
          new SluiceCredentialsProvider(
              "t",
              () ->
                  new VendedCredential(
                      "s3://b/k", "AK" + n.incrementAndGet(), "s", "t", clock.get() + HOUR),
              clock::get,
              Duration.ofSeconds(120),
              bound ->
                  java.util.concurrent.ThreadLocalRandom.current()
                      .nextLong(Math.min(bound, 60_000) + 1));
      p.resolveCredentials();
      clock.set(T0 + HOUR - 180_001); // before the earliest possible refresh
      assertThat(keyOf(p.resolveCredentials())).isEqualTo("AK1");
      clock.set(T0 + HOUR - 120_000); // at the latest possible refresh
      assertThat(keyOf(p.resolveCredentials())).isEqualTo("AK2");
    }
  }

  @Test
  void aFailedRefreshKeepsServingTheValidCredentialAndRetriesLater() {
    SluiceCredentialsProvider p = provider(0);
    p.resolveCredentials();
    failure.set(new SluiceException(503, "loadCredentials for ns.t: Sluice answered HTTP 503"));

    now.set(T0 + HOUR - 120_000); // due
    assertThat(keyOf(p.resolveCredentials())).isEqualTo("AK1");
    assertThat(fetches.get()).isEqualTo(2);
    // Not retried on every call: after a quarter of the remaining life (capped at 30 s).
    now.addAndGet(29_999);
    assertThat(keyOf(p.resolveCredentials())).isEqualTo("AK1");
    assertThat(fetches.get()).isEqualTo(2);
    now.addAndGet(1);
    assertThat(keyOf(p.resolveCredentials())).isEqualTo("AK1");
    assertThat(fetches.get()).isEqualTo(3);

    failure.set(null);
    now.addAndGet(30_000);
    assertThat(keyOf(p.resolveCredentials())).isEqualTo("AK4");
  }

  @Test
  void withoutAValidCredentialAFailureThrowsNamingTheTableAndNoSecret() {
    SluiceCredentialsProvider p = provider(0);
    p.resolveCredentials();
    failure.set(
        new SluiceException(
            403, "loadCredentials for ns.t: Sluice answered HTTP 403: ForbiddenException: nope"));
    now.set(T0 + HOUR); // expired

    assertThatThrownBy(p::resolveCredentials)
        .isInstanceOf(SdkClientException.class)
        .hasMessage(
            "Sluice cannot vend credentials for table ns.t: loadCredentials for ns.t: Sluice "
                + "answered HTTP 403: ForbiddenException: nope")
        .hasMessageNotContaining("SK-secret")
        .hasMessageNotContaining("ST-token");
  }

  @Test
  void oneFetchAtATimeWhenManyThreadsNeedACredential() throws Exception {
    SluiceCredentialsProvider p = provider(0);
    gate = new CountDownLatch(1);
    ExecutorService pool = Executors.newFixedThreadPool(16);
    try {
      List<Future<AwsCredentials>> results = new ArrayList<>();
      for (int i = 0; i < 16; i++) {
        results.add(pool.submit(p::resolveCredentials));
      }
      Thread.sleep(200);
      gate.countDown();
      for (Future<AwsCredentials> f : results) {
        assertThat(keyOf(f.get(5, TimeUnit.SECONDS))).isEqualTo("AK1");
      }

      // Due for refresh: one thread refreshes, the others are served the current credential.
      gate = new CountDownLatch(1);
      now.set(T0 + HOUR - 120_000);
      List<Future<AwsCredentials>> during = new ArrayList<>();
      for (int i = 0; i < 16; i++) {
        during.add(pool.submit(p::resolveCredentials));
      }
      Thread.sleep(200);
      gate.countDown();
      int refreshed = 0;
      for (Future<AwsCredentials> f : during) {
        refreshed += keyOf(f.get(5, TimeUnit.SECONDS)).equals("AK2") ? 1 : 0;
      }
      assertThat(refreshed).isEqualTo(1);
    } finally {
      pool.shutdownNow();
    }
    assertThat(fetches.get()).isEqualTo(2);
  }

  @Test
  void againstSluiceTheTablesCredentialForTheBucket() throws Exception {
    try (FakeSluice sluice = new FakeSluice()) {
      sluice.table("ns.t", true, "s3://bkt/wh/ns/t").table("ns.no", false, "s3://bkt/wh/ns/no");
      SluiceClient client =
          new SluiceClient(SluiceClientConfig.fromProperties(sluice.hadoopProperties()));

      AwsCredentials c =
          SluiceCredentialsProvider.create(client, TableRef.parse("ns.t"), "bkt")
              .resolveCredentials();
      assertThat(c.accessKeyId()).isEqualTo(FakeSluice.accessKeyOf("ns.t", 1));

      assertThatThrownBy(
              () ->
                  SluiceCredentialsProvider.create(client, TableRef.parse("ns.t"), "other")
                      .resolveCredentials())
          .hasMessageContaining(
              "none of the credentials Sluice vends for table ns.t is for bucket other");
      assertThatThrownBy(
              () ->
                  SluiceCredentialsProvider.create(client, TableRef.parse("ns.no"), "bkt")
                      .resolveCredentials())
          .isInstanceOf(SdkClientException.class)
          .hasMessageContaining("table ns.no")
          .hasMessageContaining("HTTP 403: ForbiddenException");
    }
  }
}
