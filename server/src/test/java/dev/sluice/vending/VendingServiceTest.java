package dev.sluice.vending;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.sluice.location.LocationPolicy;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.BooleanSupplier;
import org.apache.iceberg.TableProperties;
import org.apache.iceberg.io.FileIO;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * The shared half of vending ({@link VendingService}) against a fake backend whose vendor answers
 * from memory and records every call: safety before the provider, the vendor's cache key, half-life
 * expiry, single flight, failures not cached, vendors replaced and closed. The fake is reused by
 * {@code CatalogClientsTest} and {@code StorageBackendsTest}.
 */
class VendingServiceTest {
  static final String ALLOWED = "fake://bucket/wh";
  static final String TABLE = ALLOWED + "/ns/t";

  private final FakeBackend backend = new FakeBackend();
  private final SimpleMeterRegistry registry = new SimpleMeterRegistry();
  private final List<VendingService> services = new ArrayList<>();

  @AfterEach
  void close() {
    services.forEach(VendingService::close);
  }

  private VendingService service(Duration ttlCap) {
    return service(ttlCap, StorageTimeouts.Provider.DEFAULT);
  }

  private VendingService service(Duration ttlCap, StorageTimeouts.Provider timeouts) {
    VendingService service =
        new VendingService(
            new StorageBackends(List.of(backend)),
            Map.of("fk", new FakeSource("fk", "k")),
            ttlCap,
            1000,
            registry,
            Duration.ofMillis(50),
            timeouts);
    services.add(service);
    return service;
  }

  private VendingService service() {
    return service(Duration.ofMinutes(10));
  }

  static FakeProfile profile(String catalog) {
    return new FakeProfile(catalog, List.of(ALLOWED), Optional.empty(), 1, true);
  }

  private static List<StorageCredential> vend(
      VendingService service, FakeProfile profile, String location, Map<String, String> props) {
    return vend(service, profile, location, props, AccessMode.READ, "alice");
  }

  private static List<StorageCredential> vend(
      VendingService service,
      FakeProfile profile,
      String location,
      Map<String, String> props,
      AccessMode mode,
      String principal) {
    TreeMap<String, String> attribution = new TreeMap<>(Map.of("principal", principal));
    return service.vend(
        profile,
        new LocationPolicy(profile.catalog(), profile.allowedLocations()),
        location,
        props,
        mode,
        attribution);
  }

  private double count(String suffix) {
    var counter = registry.find(VendorMetrics.name(suffix)).tag("backend", "fake").counter();
    assertThat(counter).as("%s tagged backend=fake", suffix).isNotNull();
    return counter.count();
  }

  private FakeVendor vendor(int index) {
    assertThat(backend.opened).hasSizeGreaterThan(index);
    return backend.opened.get(index);
  }

  static void await(String what, BooleanSupplier condition) throws InterruptedException {
    long deadline = System.nanoTime() + Duration.ofSeconds(5).toNanos();
    while (!condition.getAsBoolean()) {
      if (System.nanoTime() > deadline) {
        throw new AssertionError("Timed out after 5 s waiting for " + what);
      }
      Thread.sleep(10);
    }
  }

  @Test
  void unsafeLocationsNeverReachTheProvider() {
    VendingService service = service();
    FakeProfile p = profile("c");
    assertThat(vend(service, p, "fake://bucket/other/t", Map.of())).isEmpty();
    assertThat(vend(service, p, ALLOWED + "/ns/../../x", Map.of())).isEmpty();
    assertThat(vend(service, p, TABLE, Map.of(TableProperties.WRITE_DATA_LOCATION, "fake://x/d")))
        .isEmpty();
    // The vendor's own rule, consulted only once the generic checks passed:
    assertThat(vend(service, p, ALLOWED + "/ns/t~1", Map.of())).isEmpty();
    assertThat(vendor(0).askedUnsafe).contains(ALLOWED + "/ns/t~1");
    assertThat(vendor(0).askedUnsafe).doesNotContain(ALLOWED + "/ns/../../x");
    assertThat(vendor(0).calls.get()).isZero();
    assertThat(count("provider.calls")).isZero();
    assertThat(vend(service, p, TABLE, Map.of())).hasSize(1);
    assertThat(vendor(0).calls.get()).isEqualTo(1);
  }

  @Test
  void locationsTheVendorCannotScopeTogetherGetNothing() {
    VendingService service = service();
    FakeProfile p = profile("c");
    String table = ALLOWED + "/ns/t^1";
    assertThat(vend(service, p, table, Map.of(TableProperties.WRITE_DATA_LOCATION, table + "/d^2")))
        .isEmpty();
    assertThat(vendor(0).calls.get()).isZero();
    assertThat(
            vend(service, p, table, Map.of(TableProperties.WRITE_DATA_LOCATION, ALLOWED + "/ns/d")))
        .hasSize(2);
  }

  @Test
  void planCredentialsNarrowToTheFilesDirectoriesAndAreCachedByScope() {
    VendingService service = service();
    FakeProfile p = profile("c");
    LocationPolicy policy = new LocationPolicy(p.catalog(), p.allowedLocations());
    TreeMap<String, String> attribution = new TreeMap<>(Map.of("principal", "alice"));
    List<String> files = List.of(TABLE + "/data/p=1/a.parquet", TABLE + "/data/p=2/b.parquet");
    // The fake names no objects (the default fits): the files' directories.
    PlanCredentials plan = service.vendForFiles(p, policy, TABLE, Map.of(), files, attribution);
    assertThat(plan.scope().narrowness()).isEqualTo(FileScope.Narrowness.PREFIXES);
    assertThat(plan.scope().prefixes()).containsExactly(TABLE + "/data/p=1/", TABLE + "/data/p=2/");
    assertThat(plan.credentials())
        .extracting(StorageCredential::prefix)
        .containsExactly(TABLE + "/data/p=1/", TABLE + "/data/p=2/");
    assertThat(service.vendForFiles(p, policy, TABLE, Map.of(), files, attribution).credentials())
        .isSameAs(plan.credentials());
    assertThat(vendor(0).calls.get()).isEqualTo(1);
    // Another plan's files, another credential; the table's own is apart from both.
    service.vendForFiles(p, policy, TABLE, Map.of(), List.of(files.get(0)), attribution);
    vend(service, p, TABLE, Map.of());
    assertThat(vendor(0).calls.get()).isEqualTo(3);
  }

  @Test
  void aPlanFileOutsideTheTableIsRefusedBeforeAnyVend() {
    VendingService service = service();
    FakeProfile p = profile("c");
    LocationPolicy policy = new LocationPolicy(p.catalog(), p.allowedLocations());
    TreeMap<String, String> attribution = new TreeMap<>(Map.of("principal", "alice"));
    assertThatThrownBy(
            () ->
                service.vendForFiles(
                    p,
                    policy,
                    TABLE,
                    Map.of(),
                    List.of(TABLE + "/data/a.parquet", TABLE + "2/data/b.parquet"),
                    attribution))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining(TABLE + "2/data/b.parquet");
    assertThat(backend.opened).as("no vendor even opened").isEmpty();
  }

  @Test
  void theVendorsCacheKeyDecidesWhatIsShared() {
    VendingService service = service();
    FakeProfile p = profile("c");
    // The fake's key ignores the principal: alice and bob share one call.
    List<StorageCredential> alice = vend(service, p, TABLE, Map.of(), AccessMode.READ, "alice");
    List<StorageCredential> bob = vend(service, p, TABLE, Map.of(), AccessMode.READ, "bob");
    assertThat(bob).isSameAs(alice);
    assertThat(vendor(0).calls.get()).isEqualTo(1);
    assertThat(vend(service, p, TABLE, Map.of(), AccessMode.READ_WRITE, "alice"))
        .isNotEqualTo(alice);
    assertThat(vend(service, p, TABLE + "2", Map.of())).isNotEqualTo(alice);
    assertThat(vendor(0).calls.get()).isEqualTo(3);
    // Another catalog, same vendor key: never served another profile's credential.
    vend(service, profile("d"), TABLE, Map.of());
    assertThat(backend.opened).hasSize(2);
    assertThat(vendor(1).calls.get()).isEqualTo(1);
    assertThat(count("cache.hits")).isEqualTo(1);
    assertThat(count("cache.misses")).isEqualTo(4);
  }

  @Test
  void severalCredentialsPerTableAreReturnedIntact() {
    VendingService service = service();
    Map<String, String> props =
        Map.of(
            TableProperties.WRITE_DATA_LOCATION,
            ALLOWED + "/data/t",
            TableProperties.WRITE_METADATA_LOCATION,
            ALLOWED + "/meta/t");
    List<StorageCredential> vended = vend(service, profile("c"), TABLE, props);
    assertThat(vended).isEqualTo(vendor(0).lastVended);
    assertThat(vended)
        .extracting(StorageCredential::prefix)
        .containsExactly(ALLOWED + "/data/t", ALLOWED + "/meta/t", TABLE);
    assertThat(vended).extracting(c -> c.config().get("fake.prefix")).doesNotHaveDuplicates();
  }

  @Test
  void anEntryLivesHalfTheEarliestCredentialsLifetime() throws Exception {
    VendingService service = service();
    // The short-lived credential is the second of two (sorted by prefix): the earliest counts.
    backend.lifetimesMs = new long[] {60_000, 400};
    Map<String, String> props = Map.of(TableProperties.WRITE_DATA_LOCATION, ALLOWED + "/d/t");
    long start = System.nanoTime();
    vend(service, profile("c"), TABLE, props);
    vend(service, profile("c"), TABLE, props);
    assertThat(vendor(0).calls.get()).as("served from the cache").isEqualTo(1);
    await(
        "the entry to expire",
        () -> {
          vend(service, profile("c"), TABLE, props);
          return vendor(0).calls.get() == 2;
        });
    long elapsedMs = (System.nanoTime() - start) / 1_000_000;
    // Half of 400 ms, not half of 60 s.
    assertThat(elapsedMs).isBetween(190L, 3_000L);
  }

  @Test
  void anEntryLivesAtMostTheCap() throws Exception {
    VendingService service = service(Duration.ofMillis(150));
    backend.lifetimesMs = new long[] {60_000};
    long start = System.nanoTime();
    vend(service, profile("c"), TABLE, Map.of());
    await(
        "the capped entry to expire",
        () -> {
          vend(service, profile("c"), TABLE, Map.of());
          return vendor(0).calls.get() == 2;
        });
    assertThat((System.nanoTime() - start) / 1_000_000).isBetween(140L, 3_000L);
  }

  @Test
  void anAlreadyExpiredCredentialIsNotCached() {
    VendingService service = service();
    backend.lifetimesMs = new long[] {-1_000};
    vend(service, profile("c"), TABLE, Map.of());
    vend(service, profile("c"), TABLE, Map.of());
    assertThat(vendor(0).calls.get()).isEqualTo(2);
  }

  /** {@code threads} vends of {@code table} on {@code pool}, released at once; their answers. */
  private static List<List<StorageCredential>> vendAtOnce(
      ExecutorService pool, int threads, VendingService service, String table) throws Exception {
    CyclicBarrier start = new CyclicBarrier(threads);
    List<Future<List<StorageCredential>>> results = new ArrayList<>();
    for (int i = 0; i < threads; i++) {
      results.add(
          pool.submit(
              () -> {
                start.await(10, TimeUnit.SECONDS);
                return vend(service, profile("c"), table, Map.of());
              }));
    }
    List<List<StorageCredential>> answers = new ArrayList<>();
    for (Future<List<StorageCredential>> result : results) {
      answers.add(result.get(10, TimeUnit.SECONDS));
    }
    return answers;
  }

  @Test
  void concurrentMissesOfOneKeyMakeOneProviderCall() throws Exception {
    VendingService service = service();
    backend.delayMs = 300;
    int threads = 32;
    ExecutorService pool = Executors.newFixedThreadPool(threads);
    try {
      List<List<StorageCredential>> answers = vendAtOnce(pool, threads, service, TABLE);
      for (List<StorageCredential> answer : answers) {
        assertThat(answer).isSameAs(answers.get(0));
      }
    } finally {
      pool.shutdownNow();
    }
    assertThat(vendor(0).calls.get()).isEqualTo(1);
    assertThat(count("provider.calls")).isEqualTo(1);
  }

  /**
   * A provider that answers at once leaves a window between one load's cache miss and its turn to
   * call: a call that finished in it filled the cache, so the late load takes that answer (CI saw
   * two provider calls for one key before the second look at the cache). Many rounds, each a new
   * key, widen the window's chance.
   */
  @Test
  void aLoadThatMissesJustBeforeACallFinishesMakesNoSecondCall() throws Exception {
    VendingService service = service();
    backend.delayMs = 0;
    int threads = 16;
    int rounds = 400;
    ExecutorService pool = Executors.newFixedThreadPool(threads);
    try {
      for (int round = 0; round < rounds; round++) {
        for (List<StorageCredential> answer :
            vendAtOnce(pool, threads, service, ALLOWED + "/ns/r" + round)) {
          assertThat(answer).hasSize(1);
        }
        assertThat(vendor(0).calls.get())
            .as("provider calls after round %d", round)
            .isEqualTo(round + 1);
      }
    } finally {
      pool.shutdownNow();
    }
  }

  /**
   * While the provider is down, a credential vended before is served as long as it stays valid a
   * minute more: its fresh entry (half its life) has expired, it has not.
   */
  @Test
  void whileTheProviderFailsAStillValidCredentialIsServed() throws Exception {
    VendingService service = service(Duration.ofMillis(100)); // fresh for 100 ms only
    backend.lifetimesMs = new long[] {VendingService.STALE_MIN_REMAINING.toMillis() + 30_000};
    List<StorageCredential> first = vend(service, profile("c"), TABLE, Map.of());
    Thread.sleep(150);
    backend.fail = true;
    assertThat(vend(service, profile("c"), TABLE, Map.of()))
        .as("served from before while the provider fails")
        .isEqualTo(first);
    assertThat(vendor(0).calls.get()).as("the provider was asked first").isEqualTo(2);
    assertThat(count("stale.served")).isEqualTo(1);
    assertThat(count("errors")).isEqualTo(1);
    // Right after the failure, the next load gets it at once: the provider is not waited on again.
    backend.delayMs = 2_000;
    long start = System.nanoTime();
    assertThat(vend(service, profile("c"), TABLE, Map.of())).isEqualTo(first);
    assertThat((System.nanoTime() - start) / 1_000_000).as("ms").isLessThan(1_000);
    assertThat(vendor(0).calls.get()).as("not asked again within 5 s").isEqualTo(2);
    assertThat(count("stale.served")).isEqualTo(2);
  }

  /** One that expires within the minute is not: the load fails, naming the provider's error. */
  @Test
  void aCredentialAboutToExpireIsNotServedWhileTheProviderFails() throws Exception {
    VendingService service = service(Duration.ofMillis(100));
    backend.lifetimesMs = new long[] {VendingService.STALE_MIN_REMAINING.toMillis() - 5_000};
    vend(service, profile("c"), TABLE, Map.of());
    Thread.sleep(150);
    backend.fail = true;
    assertThatThrownBy(() -> vend(service, profile("c"), TABLE, Map.of()))
        .isInstanceOf(VendingException.class)
        .hasMessageContaining("fake provider down");
    assertThat(count("stale.served")).isZero();
  }

  /**
   * Concurrent misses of one key share one failing call: a provider that times out costs them one
   * timeout together, not one each in turn.
   */
  @Test
  void concurrentMissesShareOneFailure() throws Exception {
    VendingService service = service();
    backend.delayMs = 300;
    backend.fail = true;
    long began = System.nanoTime();
    for (Throwable failure : failedConcurrentVends(service, 12)) {
      assertThat(failure).hasMessageContaining("fake provider down");
    }
    long tookMs = (System.nanoTime() - began) / 1_000_000;
    assertThat(vendor(0).calls.get()).as("provider calls").isLessThanOrEqualTo(2);
    assertThat(tookMs)
        .as("12 failed loads (ms), 300 ms each in turn would be 3600")
        .isLessThan(1_500);
  }

  /**
   * A provider that does not answer (a client library with long timeouts of its own, as
   * google-auth's 20 s): the loads waiting on it fail once the wait is over, naming the catalog,
   * all of them together; the call goes on, and its late answer serves the next load.
   */
  @Test
  void aProviderThatHangsFailsTheLoadsWithinTheWait() throws Exception {
    VendingService service =
        service(
            Duration.ofMinutes(10),
            StorageTimeouts.Provider.DEFAULT.withLoadWait(Duration.ofMillis(300)));
    backend.delayMs = 1_500;
    long began = System.nanoTime();
    for (Throwable failure : failedConcurrentVends(service, 8)) {
      assertThat(failure)
          .hasMessageContaining("catalog c")
          .hasMessageContaining("did not answer within 300 ms");
    }
    long tookMs = (System.nanoTime() - began) / 1_000_000;
    assertThat(tookMs).as("ms until all 8 loads failed (the call takes 1,500)").isLessThan(1_200);
    assertThat(vendor(0).calls.get()).as("provider calls").isEqualTo(1);
    await("the late answer", () -> vendor(0).lastVended != null);
    Thread.sleep(100); // the call's thread puts it in the cache right after
    backend.delayMs = 0;
    assertThat(vend(service, profile("c"), TABLE, Map.of())).hasSize(1);
    assertThat(vendor(0).calls.get()).as("served from the late answer").isEqualTo(1);
  }

  /**
   * {@code threads} vends of one key at once; each must fail with a {@link VendingException}, which
   * is returned.
   */
  private static List<Throwable> failedConcurrentVends(VendingService service, int threads)
      throws Exception {
    CyclicBarrier start = new CyclicBarrier(threads);
    ExecutorService pool = Executors.newFixedThreadPool(threads);
    try {
      List<Future<Throwable>> results = new ArrayList<>();
      for (int i = 0; i < threads; i++) {
        results.add(
            pool.submit(
                () -> {
                  start.await(10, TimeUnit.SECONDS);
                  try {
                    vend(service, profile("c"), TABLE, Map.of());
                    return null;
                  } catch (VendingException e) {
                    return e;
                  }
                }));
      }
      List<Throwable> failures = new ArrayList<>();
      for (Future<Throwable> result : results) {
        Throwable failure = result.get(10, TimeUnit.SECONDS);
        assertThat(failure).as("each concurrent vend fails").isInstanceOf(VendingException.class);
        failures.add(failure);
      }
      return failures;
    } finally {
      pool.shutdownNow();
    }
  }

  @Test
  void failuresAreNotCached() {
    VendingService service = service();
    backend.fail = true;
    for (int i = 0; i < 2; i++) {
      assertThatThrownBy(() -> vend(service, profile("c"), TABLE, Map.of()))
          .isInstanceOf(VendingException.class)
          .hasMessageContaining("fake provider down");
    }
    assertThat(vendor(0).calls.get()).isEqualTo(2);
    assertThat(count("errors")).isEqualTo(2);
    backend.fail = false;
    backend.empty = true;
    assertThatThrownBy(() -> vend(service, profile("c"), TABLE, Map.of()))
        .isInstanceOf(VendingException.class)
        .hasMessageContaining("returned none");
    backend.empty = false;
    assertThat(vend(service, profile("c"), TABLE, Map.of())).hasSize(1);
    assertThat(vendor(0).calls.get()).isEqualTo(4);
    assertThat(count("errors")).isEqualTo(3);
  }

  /**
   * The provider timeouts the service was built with ({@code storage.providerTimeouts}) are the
   * ones each vendor is opened with, the catalog's and the self-check's alike.
   */
  @Test
  void vendorsAreOpenedWithTheServicesProviderTimeouts() {
    StorageTimeouts.Provider custom =
        StorageTimeouts.Provider.of(Duration.ofMillis(700), Duration.ofMillis(1_400));
    VendingService service = service(Duration.ofMinutes(10), custom);
    assertThat(vend(service, profile("c"), TABLE, Map.of())).hasSize(1);
    service.openVendor(profile("apart")).orElseThrow().close();
    assertThat(backend.openedWith).containsExactly(custom, custom);
    assertThat(custom.loadWait()).isEqualTo(Duration.ofMillis(2_400));
  }

  @Test
  void aBackendWithoutAVendorVendsNothing() {
    VendingService service = service();
    FakeProfile silent = new FakeProfile("c", List.of(ALLOWED), Optional.empty(), 1, false);
    assertThat(vend(service, silent, TABLE, Map.of())).isEmpty();
    assertThat(vend(service, silent, TABLE, Map.of())).isEmpty();
    assertThat(backend.opened).isEmpty();
    assertThat(backend.openCalls.get()).as("opened once per profile").isEqualTo(1);
    assertThat(count("provider.calls")).isZero();
  }

  @Test
  void aMissingCredentialSourceIsAVendingError() {
    VendingService service = service();
    FakeProfile p = new FakeProfile("c", List.of(ALLOWED), Optional.of("gone"), 1, true);
    assertThatThrownBy(() -> vend(service, p, TABLE, Map.of()))
        .isInstanceOf(VendingException.class)
        .hasMessageContaining("'gone'");
    assertThat(count("errors")).isEqualTo(1);
    FakeProfile named = new FakeProfile("c", List.of(ALLOWED), Optional.of("fk"), 1, true);
    assertThat(vend(service, named, TABLE, Map.of())).hasSize(1);
    assertThat(vendor(0).source).isEqualTo(new FakeSource("fk", "k"));
  }

  @Test
  void aChangedProfileOpensANewVendorAndClosesTheOldOne() throws Exception {
    VendingService service = service();
    FakeProfile v1 = profile("c");
    FakeProfile v2 = new FakeProfile("c", List.of(ALLOWED), Optional.empty(), 2, true);
    vend(service, v1, TABLE, Map.of());
    vend(service, v1, TABLE, Map.of());
    assertThat(backend.opened).hasSize(1);
    vend(service, v2, TABLE, Map.of());
    assertThat(backend.opened).hasSize(2);
    assertThat(vendor(1).calls.get()).as("v1's cached credential is not v2's").isEqualTo(1);
    await("the old vendor to close", () -> vendor(0).closes.get() == 1);
    assertThat(vendor(1).closes.get()).isZero();
    service.retire("c");
    await("the retired vendor to close", () -> vendor(1).closes.get() == 1);
    vend(service, v2, TABLE, Map.of());
    assertThat(backend.opened).as("reopened after retire").hasSize(3);
    service.close();
    assertThat(vendor(2).closes.get()).isEqualTo(1);
    assertThat(vendor(0).closes.get()).isEqualTo(1);
  }

  @Test
  void metersCarryTheBackendTag() {
    VendingService service = service();
    vend(service, profile("c"), TABLE, Map.of());
    vend(service, profile("c"), TABLE, Map.of());
    assertThat(count("cache.misses")).isEqualTo(1);
    assertThat(count("cache.hits")).isEqualTo(1);
    assertThat(count("provider.calls")).isEqualTo(1);
    var latency =
        registry.find(VendorMetrics.name("provider.latency")).tag("backend", "fake").timer();
    assertThat(latency).isNotNull();
    assertThat(latency.count()).isEqualTo(1);
  }

  // ---- the fake backend ----

  /** A backend of storageType FAKE (scheme fake://, source type fake-key) with tunable answers. */
  static final class FakeBackend implements StorageBackend<FakeProfile> {
    @Override
    public Set<String> configKeys() {
      return Set.of();
    }

    static final CredentialSourceType SOURCE_TYPE =
        new CredentialSourceType(
            "fake-key", Set.of("key"), (name, fields) -> new FakeSource(name, fields.get("key")));

    final List<FakeVendor> opened = new CopyOnWriteArrayList<>();
    final AtomicInteger openCalls = new AtomicInteger();
    final List<StorageTimeouts.Provider> openedWith = new CopyOnWriteArrayList<>();
    volatile long[] lifetimesMs = {60_000};
    volatile long delayMs;
    volatile boolean fail;
    volatile boolean empty;

    @Override
    public String storageType() {
      return "FAKE";
    }

    @Override
    public Class<FakeProfile> profileType() {
      return FakeProfile.class;
    }

    @Override
    public Set<String> schemes() {
      return Set.of("fake");
    }

    @Override
    public List<CredentialSourceType> credentialSourceTypes() {
      return List.of(SOURCE_TYPE);
    }

    @Override
    public FakeProfile parse(Input input) {
      var source = input.info().path("credentialSource");
      return new FakeProfile(
          input.catalog(),
          input.allowedLocations(),
          source.isTextual() ? Optional.of(source.asText()) : Optional.empty(),
          input.info().path("version").asInt(1),
          input.info().path("vends").asBoolean(true));
    }

    @Override
    public Optional<CredentialVendor> openVendor(
        FakeProfile profile,
        CredentialSource source,
        VendorMetrics metrics,
        StorageTimeouts.Provider timeouts) {
      openCalls.incrementAndGet();
      openedWith.add(timeouts);
      if (!profile.vends()) {
        return Optional.empty();
      }
      FakeVendor vendor = new FakeVendor(this, source, metrics);
      opened.add(vendor);
      return Optional.of(vendor);
    }

    @Override
    public FileIO openCatalogIO(
        FakeProfile profile, CredentialSource source, StorageTimeouts.CatalogIo timeouts) {
      throw new UnsupportedOperationException("the fake has no store");
    }
  }

  record FakeProfile(
      String catalog,
      List<String> allowedLocations,
      Optional<String> credentialSource,
      int version,
      boolean vends)
      implements StorageProfile {
    @Override
    public String storageType() {
      return "FAKE";
    }

    @Override
    public Set<Delegation.Kind> offered() {
      return vends ? Set.of(Delegation.Kind.VENDED_CREDENTIALS) : Set.of();
    }

    @Override
    public boolean delegateOnlyOnRequest() {
      return false;
    }
  }

  record FakeSource(String name, String key) implements CredentialSource {
    @Override
    public String type() {
      return "fake-key";
    }
  }

  /**
   * One credential per location (the fake cannot fold them); the cache key ignores the principal; a
   * location with '~' is its own unsafe rule.
   */
  static final class FakeVendor implements CredentialVendor {
    final AtomicInteger calls = new AtomicInteger();
    final AtomicInteger closes = new AtomicInteger();
    final List<String> askedUnsafe = new CopyOnWriteArrayList<>();
    final FakeBackend backend;
    final CredentialSource source;
    final VendorMetrics metrics;
    volatile List<StorageCredential> lastVended;

    FakeVendor(FakeBackend backend, CredentialSource source, VendorMetrics metrics) {
      this.backend = backend;
      this.source = source;
      this.metrics = metrics;
    }

    @Override
    public Optional<String> unsafe(String location) {
      askedUnsafe.add(location);
      return location.contains("~") ? Optional.of("tilde") : Optional.empty();
    }

    /** Locations it cannot cover with one credential: more than one with a '^' in it. */
    @Override
    public Optional<String> unscopable(List<String> locations) {
      return locations.stream().filter(l -> l.contains("^")).count() > 1
          ? Optional.of("two carets")
          : Optional.empty();
    }

    @Override
    public Object cacheKey(VendingRequest request) {
      return List.of(request.locations(), request.mode());
    }

    @Override
    public List<StorageCredential> vend(VendingRequest request) {
      int call = calls.incrementAndGet();
      metrics.providerCall(Duration.ofMillis(1));
      try {
        Thread.sleep(backend.delayMs);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      }
      if (backend.fail) {
        throw new VendingException("fake provider down", 503, null);
      }
      if (backend.empty) {
        return List.of();
      }
      long now = System.currentTimeMillis();
      long[] lifetimes = backend.lifetimesMs;
      List<StorageCredential> out = new ArrayList<>();
      for (int i = 0; i < request.locations().size(); i++) {
        String prefix = request.locations().get(i);
        out.add(
            new StorageCredential(
                prefix,
                Map.of("fake.prefix", prefix, "fake.call", Integer.toString(call)),
                now + lifetimes[Math.min(i, lifetimes.length - 1)]));
      }
      lastVended = List.copyOf(out);
      return out;
    }

    @Override
    public void close() {
      closes.incrementAndGet();
    }
  }
}
