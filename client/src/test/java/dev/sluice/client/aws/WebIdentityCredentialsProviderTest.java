package dev.sluice.client.aws;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import software.amazon.awssdk.auth.credentials.AwsCredentials;
import software.amazon.awssdk.auth.credentials.AwsSessionCredentials;
import software.amazon.awssdk.auth.credentials.InstanceProfileCredentialsProvider;
import software.amazon.awssdk.core.exception.SdkClientException;

class WebIdentityCredentialsProviderTest {
  private static final String TOKEN = "eyJhbGciOiJSUzI1NiJ9.the-projected-service-account-token";
  private static final AtomicInteger ROLES = new AtomicInteger();

  private static FakeImds imds;
  private static String previousImdsEndpoint;

  @TempDir Path dir;
  private FakeSts sts;
  private Path tokenFile;
  private AwsEnvironment env;

  @BeforeAll
  static void pointTheSdkAtAFakeInstanceMetadataService() throws Exception {
    imds = new FakeImds();
    previousImdsEndpoint = System.getProperty("aws.ec2MetadataServiceEndpoint");
    System.setProperty("aws.ec2MetadataServiceEndpoint", imds.endpoint());
  }

  @AfterAll
  static void restore() {
    if (previousImdsEndpoint == null) {
      System.clearProperty("aws.ec2MetadataServiceEndpoint");
    } else {
      System.setProperty("aws.ec2MetadataServiceEndpoint", previousImdsEndpoint);
    }
    imds.close();
  }

  @BeforeEach
  void setUp() throws Exception {
    sts = new FakeSts();
    tokenFile = Files.writeString(dir.resolve("token"), TOKEN + "\n");
    // Nothing from the real process: no region, no endpoints, no home directory files.
    env = AwsEnvironment.of(Map.of(), Map.of(), dir.resolve("home"));
  }

  @AfterEach
  void tearDown() {
    sts.close();
  }

  /** Each test its own role, so the process-wide cache never carries over between tests. */
  private WebIdentitySettings.Builder settings() {
    return WebIdentitySettings.builder()
        .roleArn("arn:aws:iam::123456789012:role/test-" + ROLES.incrementAndGet())
        .webIdentityTokenFile(tokenFile)
        .stsEndpoint(sts.endpoint())
        .backoffBase(Duration.ofMillis(5));
  }

  @Test
  void theInstanceMetadataFakeWouldObserveAFallback() {
    // The 0-call assertions below mean something only if the SDK's instance role reaches it.
    int before = imds.calls();
    AwsCredentials node = InstanceProfileCredentialsProvider.builder().build().resolveCredentials();
    assertThat(node.accessKeyId()).isEqualTo(FakeImds.NODE_KEY);
    assertThat(imds.calls()).isGreaterThan(before);
  }

  @Test
  void aBurstOf64ThreadsMakesOneStsCall() throws Exception {
    sts.delay(Duration.ofMillis(300));
    WebIdentitySettings s = settings().build();
    int threads = 64;
    ExecutorService pool = Executors.newFixedThreadPool(threads);
    CountDownLatch start = new CountDownLatch(1);
    List<Future<AwsCredentials>> results = new ArrayList<>();
    try {
      for (int i = 0; i < threads; i++) {
        // A new provider per thread, as engines create them per task: the cache is shared.
        results.add(
            pool.submit(
                () -> {
                  start.await();
                  return WebIdentityCredentialsProvider.create(s, env, null).resolveCredentials();
                }));
      }
      start.countDown();
      Set<String> keys = ConcurrentHashMap.newKeySet();
      for (Future<AwsCredentials> f : results) {
        keys.add(f.get(30, TimeUnit.SECONDS).accessKeyId());
      }
      assertThat(keys).containsExactly("ASIAFAKE1");
      assertThat(sts.calls()).isEqualTo(1);
    } finally {
      pool.shutdownNow();
    }
  }

  @Test
  void theCallIsUnsignedAndCarriesTheTokenRoleAndSession() {
    WebIdentitySettings s = settings().sessionName("spark-exec").build();
    AwsSessionCredentials c =
        (AwsSessionCredentials)
            WebIdentityCredentialsProvider.create(s, env, null).resolveCredentials();
    assertThat(c.sessionToken()).isEqualTo("session-1");
    assertThat(c.expirationTime()).isPresent();
    FakeSts.Call call = sts.recorded().get(0);
    assertThat(call.signed()).isFalse();
    assertThat(call.form())
        .containsEntry("Action", "AssumeRoleWithWebIdentity")
        .containsEntry("RoleArn", s.roleArn())
        .containsEntry("RoleSessionName", "spark-exec")
        .containsEntry("WebIdentityToken", TOKEN);
  }

  @Test
  void threeThrottlesThenSuccessAreFourCalls() {
    sts.throttleNext(3);
    AwsCredentials c =
        WebIdentityCredentialsProvider.create(settings().maxAttempts(5).build(), env, null)
            .resolveCredentials();
    assertThat(c.accessKeyId()).isEqualTo("ASIAFAKE4");
    assertThat(sts.calls()).isEqualTo(4);
  }

  @Test
  void aThrottleOutlastingTheRetriesIsAnErrorAndNeverFallsBack() {
    sts.throttleNext(Integer.MAX_VALUE);
    int imdsBefore = imds.calls();
    WebIdentitySettings s = settings().maxAttempts(3).build();
    WebIdentityCredentialsProvider provider = WebIdentityCredentialsProvider.create(s, env, null);
    assertThatThrownBy(provider::resolveCredentials)
        .isInstanceOf(SdkClientException.class)
        .hasMessageContaining(s.roleArn())
        .hasMessageContaining("after 3 attempt(s)")
        .hasMessageContaining("throttled")
        .hasMessageContaining("Throttling")
        .hasMessageNotContaining(TOKEN)
        .satisfies(e -> assertThat(String.valueOf(e.getCause())).doesNotContain(TOKEN));
    assertThat(sts.calls()).isEqualTo(3);
    assertThat(imds.calls()).isEqualTo(imdsBefore);
  }

  @Test
  void anUnreachableStsIsRetriedThenAnErrorWithoutFallback() throws Exception {
    int closedPort;
    try (java.net.ServerSocket socket = new java.net.ServerSocket(0)) {
      closedPort = socket.getLocalPort();
    }
    int imdsBefore = imds.calls();
    WebIdentitySettings s =
        settings()
            .maxAttempts(3)
            .stsEndpoint(java.net.URI.create("http://127.0.0.1:" + closedPort))
            .build();
    assertThatThrownBy(WebIdentityCredentialsProvider.create(s, env, null)::resolveCredentials)
        .isInstanceOf(SdkClientException.class)
        .hasMessageContaining(s.roleArn())
        .hasMessageContaining("after 3 attempt(s)")
        .hasMessageNotContaining(TOKEN);
    assertThat(imds.calls()).isEqualTo(imdsBefore);
  }

  @Test
  void refreshesAheadOfExpiryWithJitter() {
    sts.lifetime(Duration.ofMinutes(10));
    MutableClock clock = new MutableClock(Instant.now());
    WebIdentityCredentialsProvider provider =
        WebIdentityCredentialsProvider.unshared(
            settings().minTtlSeconds(120).refreshJitterSeconds(60).build(), env, clock);
    assertThat(provider.resolveCredentials().accessKeyId()).isEqualTo("ASIAFAKE1");
    // Refresh when expiration - now < minTtl + jitter: 120 to 180 s before the 10-minute expiry.
    Instant expiry = clock.instant().plus(Duration.ofMinutes(10));
    assertThat(provider.refreshAt()).isBetween(expiry.minusSeconds(181), expiry.minusSeconds(119));
    clock.set(provider.refreshAt().minusSeconds(1));
    assertThat(provider.resolveCredentials().accessKeyId()).isEqualTo("ASIAFAKE1");
    assertThat(sts.calls()).isEqualTo(1);
    clock.set(provider.refreshAt().plusSeconds(1));
    assertThat(provider.resolveCredentials().accessKeyId()).isEqualTo("ASIAFAKE2");
    assertThat(sts.calls()).isEqualTo(2);
  }

  @Test
  void aThrottledRefreshKeepsServingTheValidCredentialThenFailsOnceItExpires() {
    sts.lifetime(Duration.ofMinutes(10));
    Instant start = Instant.now();
    MutableClock clock = new MutableClock(start);
    WebIdentitySettings s = settings().maxAttempts(2).minTtlSeconds(120).build();
    WebIdentityCredentialsProvider provider =
        WebIdentityCredentialsProvider.unshared(s, env, clock);
    assertThat(provider.resolveCredentials().accessKeyId()).isEqualTo("ASIAFAKE1");
    int imdsBefore = imds.calls();

    // Due for refresh, 100 s of validity left, STS throttling: the current one is served.
    sts.throttleNext(Integer.MAX_VALUE);
    clock.set(start.plus(Duration.ofMinutes(10)).minusSeconds(100));
    assertThat(provider.resolveCredentials().accessKeyId()).isEqualTo("ASIAFAKE1");
    assertThat(sts.calls()).isEqualTo(1 + 2);
    // The next refresh waits the retry pause: no STS call meanwhile.
    assertThat(provider.resolveCredentials().accessKeyId()).isEqualTo("ASIAFAKE1");
    assertThat(sts.calls()).isEqualTo(3);

    // No valid credential left: an error, never the node's role.
    clock.set(start.plus(Duration.ofMinutes(10)).plusSeconds(1));
    assertThatThrownBy(provider::resolveCredentials)
        .isInstanceOf(SdkClientException.class)
        .hasMessageContaining("after 2 attempt(s)");
    assertThat(sts.calls()).isEqualTo(5);
    assertThat(imds.calls()).isEqualTo(imdsBefore);

    // STS back: the next call gets a new credential.
    sts.throttleNext(0);
    assertThat(provider.resolveCredentials().accessKeyId()).isEqualTo("ASIAFAKE6");
  }

  @Test
  void aFailedRefreshIsRetriedAfterThePause() {
    sts.lifetime(Duration.ofMinutes(10));
    Instant start = Instant.now();
    MutableClock clock = new MutableClock(start);
    WebIdentityCredentialsProvider provider =
        WebIdentityCredentialsProvider.unshared(
            settings().maxAttempts(1).minTtlSeconds(300).build(), env, clock);
    provider.resolveCredentials();
    sts.throttleNext(1);
    clock.set(start.plus(Duration.ofMinutes(6)));
    assertThat(provider.resolveCredentials().accessKeyId()).isEqualTo("ASIAFAKE1");
    clock.set(clock.instant().plus(CredentialCache.RETRY_PAUSE).plusSeconds(1));
    assertThat(provider.resolveCredentials().accessKeyId()).isEqualTo("ASIAFAKE3");
    assertThat(sts.calls()).isEqualTo(3);
  }

  @Test
  void anUnreadableTokenFileIsAnErrorWithoutAnyCall() throws Exception {
    Files.delete(tokenFile);
    WebIdentitySettings s = settings().build();
    assertThatThrownBy(WebIdentityCredentialsProvider.create(s, env, null)::resolveCredentials)
        .isInstanceOf(SdkClientException.class)
        .hasMessageContaining(tokenFile.toString())
        .hasMessageContaining(s.roleArn());
    assertThat(sts.calls()).isZero();
  }

  @Test
  void toStringNamesTheRoleButNoSecret() {
    WebIdentityCredentialsProvider provider =
        WebIdentityCredentialsProvider.create(settings().build(), env, null);
    AwsCredentials c = provider.resolveCredentials();
    assertThat(provider.toString())
        .contains(provider.settings().roleArn())
        .doesNotContain(TOKEN)
        .doesNotContain(c.secretAccessKey())
        .doesNotContain("session-1");
  }

  /** A clock the test moves. */
  static final class MutableClock extends Clock {
    private volatile Instant now;

    MutableClock(Instant now) {
      this.now = now;
    }

    void set(Instant now) {
      this.now = now;
    }

    @Override
    public Instant instant() {
      return now;
    }

    @Override
    public ZoneOffset getZone() {
      return ZoneOffset.UTC;
    }

    @Override
    public Clock withZone(java.time.ZoneId zone) {
      return this;
    }
  }
}
