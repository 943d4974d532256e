package dev.sluice.vending;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.sluice.location.LocationPolicy;
import dev.sluice.location.LocationSafety;
import dev.sluice.location.StorageLocation;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.Meter;
import io.micrometer.core.instrument.Timer;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.UUID;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * What every storage backend must do, checked at the vending level (the backend's real vendor
 * behind {@link VendingService}, no HTTP server) against the real store: a credential is used only
 * through a {@link Probe} built from its client properties, so the store, not Sluice, decides what
 * it may touch. A new backend (R2, GCS, Azure, ...) subclasses this and fills in the hooks; see
 * {@code vending/s3/S3BackendContractTest}.
 *
 * <p>Each test works in a fresh area below {@link #allowedLocation()}: table A at {@code area/a},
 * its sibling {@code area/a2} (a name that starts the same) and table B at {@code area/b}.
 */
public abstract class StorageBackendContract {
  private static final byte[] CONTENT = "contract".getBytes(UTF_8);
  private static final int CONCURRENT_VENDS = 32;

  /** What the store answered a probe: its HTTP status. */
  public record Answer(int status) {
    public boolean allowed() {
      return status >= 200 && status < 300;
    }

    /** Refused for lack of permission (not a missing object, not a server error). */
    public boolean refused() {
      return status == 401 || status == 403;
    }
  }

  /**
   * The store as an engine holding one vended credential sees it: built only from the credential's
   * client properties ({@link StorageCredential#config()}), nothing else.
   */
  public interface Probe extends AutoCloseable {
    Answer put(String location, byte[] content);

    Answer get(String location);

    /** Lists below {@code location} (its path plus "/"; the whole container for a root). */
    Answer list(String location);

    Answer delete(String location);

    @Override
    void close();
  }

  // ---- hooks ----

  /** The registry holding the backend under test. */
  protected abstract StorageBackends backends();

  /** The server's credential sources the profiles name. */
  protected abstract Map<String, CredentialSource> sources();

  /**
   * A fresh location (at least one segment below the storage root) that the catalog's profile
   * allows and nothing else uses: a new bucket or container per test class.
   */
  protected abstract String allowedLocation();

  /**
   * {@code storageConfigInfo} allowing only {@link #allowedLocation()}, whose credentials live
   * {@code lifetimeSeconds}.
   */
  protected abstract ObjectNode storageConfigInfo(int lifetimeSeconds);

  /**
   * {@code storageConfigInfo} whose provider fails (unreachable, or refuses the identity); not
   * called when {@link #providerCanFail()} is false.
   */
  protected abstract ObjectNode failingStorageConfigInfo();

  /**
   * False for a backend that makes credentials locally, with no provider that can fail once the
   * profile parsed (R2 mints from the parent key): the failure tests then only check that its vends
   * count no errors.
   */
  protected boolean providerCanFail() {
    return true;
  }

  /** The shortest credential lifetime the store accepts (passed to the parser as the minimum). */
  protected abstract int shortestLifetimeSeconds();

  /** Locations inside {@code area} (which is allowed) that only this backend cannot scope. */
  protected abstract List<String> backendUnsafeLocations(String area);

  /** A probe holding only {@code credential}. */
  protected abstract Probe probe(StorageCredential credential);

  /** Writes an object with the store's administrative identity. */
  protected abstract void adminPut(String location, byte[] content);

  /** Reads an object with the store's administrative identity; empty when it does not exist. */
  protected abstract Optional<byte[]> adminGet(String location);

  /** The {@code backend} tag of this backend's metrics. */
  protected abstract String metricsTag();

  /**
   * Where other tables' files live that a credential for {@code table} must not reach: by default a
   * sibling whose name starts the same ({@code a2}) and another table ({@code b}) beside it. A
   * backend whose profile here scopes to a whole container (Azure on a flat account, by the
   * operator's explicit choice) names locations in other containers instead.
   */
  protected List<String> outsideTheTable(String area) {
    return List.of(area + "/a2", area + "/b");
  }

  /**
   * False when the profile under test scopes credentials to a container rather than a prefix: the
   * checks beside the table, on its parent and on the allowed location then do not apply, and
   * {@link #outsideTheTable} carries the refusals.
   */
  protected boolean scopedBelowContainer() {
    return true;
  }

  /**
   * True when this backend's plan credential for a few files names exactly those objects ({@link
   * FileScope.Narrowness#OBJECTS}); false when it narrows to their directories.
   */
  protected boolean planNamesObjects() {
    return false;
  }

  /** How many files a plan needs before exact objects no longer fit (and prefixes are used). */
  protected int planFilesBeyondObjects() {
    return 0;
  }

  /** The lifetime of ordinary credentials in these tests. */
  protected int lifetimeSeconds() {
    return 900;
  }

  /** The lifetime the refresh test uses: short, but long enough to use the credential once. */
  protected int refreshLifetimeSeconds() {
    return Math.max(4, shortestLifetimeSeconds());
  }

  // ---- per-test state ----

  private SimpleMeterRegistry registry;
  private VendingService service;
  private String area;

  /** This test's own prefix under {@link #allowedLocation()}. */
  protected final String area() {
    return area;
  }

  @BeforeEach
  void openService() {
    registry = new SimpleMeterRegistry();
    service =
        new VendingService(
            backends(),
            sources(),
            Duration.ofHours(1),
            10_000,
            registry,
            StorageTimeouts.Provider.DEFAULT);
    area = allowedLocation() + "/t-" + UUID.randomUUID().toString().substring(0, 8);
  }

  @AfterEach
  void closeService() {
    service.close();
  }

  @Test
  void escapeCorpusIsNeverVendedForAndNeverReachesTheProvider() {
    StorageProfile profile = profile("contract", storageConfigInfo(lifetimeSeconds()));
    List<String> unsafe = new ArrayList<>(escapeCorpus(allowedLocation()));
    unsafe.addAll(backendUnsafeLocations(area));
    String safe = area + "/ok";
    for (int i = 0; i < unsafe.size(); i++) {
      String location = unsafe.get(i);
      String shown = location.replaceAll("\\p{Cntrl}", "?");
      assertThat(vend(profile, location, Map.of(), AccessMode.READ_WRITE))
          .as("table location %s", shown)
          .isEmpty();
      String property =
          LocationPolicy.LOCATION_PROPERTIES.get(i % LocationPolicy.LOCATION_PROPERTIES.size());
      assertThat(vend(profile, safe, Map.of(property, location), AccessMode.READ_WRITE))
          .as("%s = %s", property, shown)
          .isEmpty();
    }
    assertThat(count("provider.calls")).as("provider calls for unsafe locations").isZero();
    assertThat(latency().count()).as("provider latency samples").isZero();
    // The same service does vend for a safe location: the empty answers above were refusals.
    assertThat(vend(profile, safe, Map.of(), AccessMode.READ_WRITE)).isNotEmpty();
    assertThat(count("provider.calls")).isEqualTo(1);
  }

  @Test
  void readCredentialCannotWrite() {
    String a = area + "/a";
    adminPut(a + "/data/x.bin", CONTENT);
    StorageProfile profile = profile("contract", storageConfigInfo(lifetimeSeconds()));
    List<StorageCredential> read = vend(profile, a, Map.of(), AccessMode.READ);
    try (Probe probe = probe(covering(read, a + "/data/x.bin"))) {
      assertAllowed(probe.get(a + "/data/x.bin"), "GET inside the table");
      assertAllowed(probe.list(a), "LIST inside the table");
      assertRefused(probe.put(a + "/data/evil.bin", CONTENT), "PUT with a READ credential");
      assertThat(adminGet(a + "/data/evil.bin")).as("object after a refused PUT").isEmpty();
      assertRefused(probe.put(a + "/data/x.bin", new byte[] {1}), "overwrite with READ");
      assertThat(adminGet(a + "/data/x.bin")).get().isEqualTo(CONTENT);
      assertRefused(probe.delete(a + "/data/x.bin"), "DELETE with a READ credential");
      assertThat(adminGet(a + "/data/x.bin")).as("object after a refused DELETE").isPresent();
    }
  }

  @Test
  void readWriteCredentialStaysInsideItsTable() {
    String a = area + "/a";
    List<String> outside = outsideTheTable(area);
    for (String other : outside) {
      adminPut(other + "/data/x.bin", CONTENT);
    }
    adminPut(area + "/x.bin", CONTENT);
    StorageProfile profile = profile("contract", storageConfigInfo(lifetimeSeconds()));
    List<StorageCredential> write = vend(profile, a, Map.of(), AccessMode.READ_WRITE);
    for (StorageCredential credential : write) {
      // A container-scoped credential says so: its prefix is the container holding the table.
      StorageLocation prefix = StorageLocation.parse(credential.prefix());
      StorageLocation table = StorageLocation.parse(a);
      assertThat(scopedBelowContainer() ? table.covers(prefix) : prefix.covers(table))
          .as("credential prefix %s and the table %s", credential.prefix(), a)
          .isTrue();
    }
    try (Probe probe = probe(covering(write, a + "/data/new.bin"))) {
      assertAllowed(probe.put(a + "/data/new.bin", CONTENT), "PUT inside the table");
      assertThat(adminGet(a + "/data/new.bin")).get().isEqualTo(CONTENT);
      assertAllowed(probe.get(a + "/data/new.bin"), "GET inside the table");
      assertAllowed(probe.list(a), "LIST inside the table");
      assertAllowed(probe.delete(a + "/data/new.bin"), "DELETE inside the table");
      assertThat(adminGet(a + "/data/new.bin")).as("object after DELETE").isEmpty();
      for (String other : outside) {
        assertRefused(probe.put(other + "/data/evil.bin", CONTENT), "PUT in " + other);
        assertThat(adminGet(other + "/data/evil.bin")).as("refused PUT in " + other).isEmpty();
        assertRefused(probe.get(other + "/data/x.bin"), "GET in " + other);
        assertRefused(probe.list(other), "LIST in " + other);
        assertRefused(probe.delete(other + "/data/x.bin"), "DELETE in " + other);
        assertThat(adminGet(other + "/data/x.bin")).as("refused DELETE in " + other).isPresent();
      }
      if (scopedBelowContainer()) {
        assertRefused(probe.put(area + "/evil.bin", CONTENT), "PUT beside the table");
        assertThat(adminGet(area + "/evil.bin")).as("refused PUT beside the table").isEmpty();
        assertRefused(probe.get(area + "/x.bin"), "GET beside the table");
        assertRefused(probe.list(area), "LIST of the table's parent");
        assertRefused(probe.list(allowedLocation()), "LIST of the allowed location");
        String root = StorageLocation.parse(allowedLocation()).rootKey();
        assertRefused(probe.list(root), "LIST of the whole container " + root);
      }
    }
  }

  @Test
  void planCredentialReadsItsFilesAndNothingElse() {
    String a = area + "/a";
    String x = a + "/data/p=1/x.parquet";
    String y = a + "/data/p=1/y.parquet";
    String sameDirectory = a + "/data/p=1/z.parquet";
    String otherPartition = a + "/data/p=10/w.parquet";
    String metadata = a + "/metadata/v1.metadata.json";
    List<String> planted = new ArrayList<>(List.of(x, y, sameDirectory, otherPartition, metadata));
    outsideTheTable(area).forEach(other -> planted.add(other + "/data/p=1/x.parquet"));
    planted.forEach(location -> adminPut(location, CONTENT));
    StorageProfile profile = profile("contract", storageConfigInfo(lifetimeSeconds()));
    PlanCredentials plan = vendForFiles(profile, a, List.of(x, y));
    FileScope.Narrowness expected =
        planNamesObjects() ? FileScope.Narrowness.OBJECTS : FileScope.Narrowness.PREFIXES;
    if (!scopedBelowContainer()) {
      // A container-scoped SAS covers the container whatever a plan names: the plan says so.
      assertThat(plan.scope().narrowness()).isEqualTo(FileScope.Narrowness.TABLE);
      try (Probe probe = probe(covering(plan.credentials(), x))) {
        assertAllowed(probe.get(x), "GET a planned file");
        assertRefused(
            probe.put(a + "/data/p=1/evil.parquet", CONTENT), "PUT with a plan credential");
      }
      return;
    }
    assertThat(plan.scope().narrowness()).as("scope %s", plan.scope()).isEqualTo(expected);
    if (!planNamesObjects()) {
      assertThat(plan.scope().prefixes()).containsExactly(a + "/data/p=1/");
    }
    try (Probe probe = probe(covering(plan.credentials(), x))) {
      assertAllowed(probe.get(x), "GET a planned file");
      assertAllowed(probe.get(y), "GET the other planned file");
      if (planNamesObjects()) {
        assertRefused(probe.get(sameDirectory), "GET an unplanned file beside them");
      } else {
        assertAllowed(probe.get(sameDirectory), "GET a file in the planned directory");
      }
      assertRefused(probe.get(otherPartition), "GET in p=10 (a name that starts like p=1)");
      assertRefused(probe.get(metadata), "GET the table's metadata");
      for (String other : outsideTheTable(area)) {
        assertRefused(probe.get(other + "/data/p=1/x.parquet"), "GET in " + other);
      }
      assertRefused(probe.put(a + "/data/p=1/evil.parquet", CONTENT), "PUT with a plan credential");
      assertThat(adminGet(a + "/data/p=1/evil.parquet")).as("refused PUT").isEmpty();
      assertRefused(probe.delete(x), "DELETE with a plan credential");
    }
  }

  @Test
  void planCredentialForManyFilesCoversTheirDirectoriesOnly() {
    if (planFilesBeyondObjects() == 0) {
      return; // objects are never named: the test above already checks prefixes
    }
    String a = area + "/a";
    List<String> files = new ArrayList<>();
    for (int i = 0; i < planFilesBeyondObjects(); i++) {
      files.add(a + "/data/p=" + (i % 2 + 1) + "/file-" + i + "-0123456789abcdef.parquet");
    }
    String first = files.get(0);
    String unplanned = a + "/data/p=1/unplanned.parquet";
    String otherPartition = a + "/data/p=10/w.parquet";
    String metadata = a + "/metadata/v1.metadata.json";
    for (String location : List.of(first, files.get(1), unplanned, otherPartition, metadata)) {
      adminPut(location, CONTENT);
    }
    StorageProfile profile = profile("contract", storageConfigInfo(lifetimeSeconds()));
    PlanCredentials plan = vendForFiles(profile, a, files);
    assertThat(plan.scope().narrowness()).isEqualTo(FileScope.Narrowness.PREFIXES);
    assertThat(plan.scope().prefixes()).containsExactly(a + "/data/p=1/", a + "/data/p=2/");
    try (Probe probe = probe(covering(plan.credentials(), first))) {
      assertAllowed(probe.get(first), "GET a planned file in p=1");
      assertAllowed(probe.get(files.get(1)), "GET a planned file in p=2");
      assertAllowed(probe.get(unplanned), "GET a file in a planned directory");
      assertRefused(probe.get(otherPartition), "GET in p=10");
      assertRefused(probe.get(metadata), "GET the table's metadata");
      assertRefused(probe.put(a + "/data/p=1/evil.parquet", CONTENT), "PUT with a plan credential");
    }
  }

  @Test
  void anExpiredEntryIsRefreshedWithANewWorkingCredential() throws Exception {
    int lifetime = refreshLifetimeSeconds();
    assertThat(lifetime)
        .as("the refresh test needs a store that accepts short credential lifetimes")
        .isLessThanOrEqualTo(60);
    String a = area + "/a";
    adminPut(a + "/data/x.bin", CONTENT);
    StorageProfile profile = profile("contract-short", storageConfigInfo(lifetime));
    long before = System.currentTimeMillis();
    StorageCredential first = covering(vend(profile, a, Map.of(), AccessMode.READ), a);
    assertThat(first.expiresAtMs())
        .as("expiry honours the configured lifetime of %ss", lifetime)
        .isGreaterThan(before)
        .isLessThanOrEqualTo(before + lifetime * 1000L + 2000);
    assertThat(covering(vend(profile, a, Map.of(), AccessMode.READ), a)).isEqualTo(first);
    assertThat(count("provider.calls")).as("a fresh entry is served from the cache").isEqualTo(1);
    long deadline = System.currentTimeMillis() + lifetime * 1000L + 5000;
    StorageCredential second = first;
    while (count("provider.calls") < 2 && System.currentTimeMillis() < deadline) {
      Thread.sleep(100);
      second = covering(vend(profile, a, Map.of(), AccessMode.READ), a);
    }
    assertThat(count("provider.calls")).as("a call after the entry expired").isEqualTo(2);
    assertThat(second.config()).as("a new credential").isNotEqualTo(first.config());
    assertThat(second.expiresAtMs()).isGreaterThan(first.expiresAtMs());
    try (Probe probe = probe(second)) {
      assertAllowed(probe.get(a + "/data/x.bin"), "GET with the refreshed credential");
    }
    Thread.sleep(Math.max(0, first.expiresAtMs() - System.currentTimeMillis()) + 1500);
    try (Probe probe = probe(first)) {
      assertRefused(probe.get(a + "/data/x.bin"), "GET with the expired credential");
    }
  }

  @Test
  void concurrentVendsOfOneColdKeyMakeOneProviderCall() throws Exception {
    String a = area + "/a";
    StorageProfile profile = profile("contract", storageConfigInfo(lifetimeSeconds()));
    CyclicBarrier start = new CyclicBarrier(CONCURRENT_VENDS);
    ExecutorService pool = Executors.newFixedThreadPool(CONCURRENT_VENDS);
    try {
      List<Future<List<StorageCredential>>> results = new ArrayList<>();
      for (int i = 0; i < CONCURRENT_VENDS; i++) {
        results.add(
            pool.submit(
                () -> {
                  start.await(10, TimeUnit.SECONDS);
                  return vend(profile, a, Map.of(), AccessMode.READ_WRITE);
                }));
      }
      List<StorageCredential> first = results.get(0).get(30, TimeUnit.SECONDS);
      assertThat(first).isNotEmpty();
      for (Future<List<StorageCredential>> result : results) {
        assertThat(result.get(30, TimeUnit.SECONDS)).isEqualTo(first);
      }
    } finally {
      pool.shutdownNow();
    }
    assertThat(count("provider.calls")).isEqualTo(1);
    assertThat(count("cache.hits") + count("cache.misses")).isEqualTo(CONCURRENT_VENDS);
  }

  @Test
  void failuresAreNotCached() {
    if (!providerCanFail()) {
      StorageProfile profile = profile("contract", storageConfigInfo(lifetimeSeconds()));
      vend(profile, area + "/a", Map.of(), AccessMode.READ);
      assertThat(count("errors")).as("a backend without a failing provider").isZero();
      return;
    }
    StorageProfile failing = profile("contract-failing", failingStorageConfigInfo());
    String a = area + "/a";
    for (int i = 0; i < 2; i++) {
      assertThatThrownBy(() -> vend(failing, a, Map.of(), AccessMode.READ))
          .isInstanceOf(VendingException.class);
    }
    assertThat(count("provider.calls")).as("each failing vend asks the provider").isEqualTo(2);
    assertThat(count("errors")).isEqualTo(2);
    assertThat(count("cache.hits")).isZero();
  }

  @Test
  void metricsAreTaggedWithTheBackend() {
    String a = area + "/a";
    StorageProfile profile = profile("contract", storageConfigInfo(lifetimeSeconds()));
    vend(profile, a, Map.of(), AccessMode.READ);
    vend(profile, a, Map.of(), AccessMode.READ);
    int failures = 0;
    if (providerCanFail()) {
      StorageProfile failing = profile("contract-failing", failingStorageConfigInfo());
      assertThatThrownBy(() -> vend(failing, a, Map.of(), AccessMode.READ))
          .isInstanceOf(VendingException.class);
      failures = 1;
    }
    assertThat(count("cache.misses")).isEqualTo(1 + failures);
    assertThat(count("cache.hits")).isEqualTo(1);
    assertThat(count("provider.calls")).isEqualTo(1 + failures);
    assertThat(count("errors")).isEqualTo(failures);
    assertThat(latency().count()).as("provider latency samples").isGreaterThanOrEqualTo(1);
    List<Meter> vendingMeters =
        registry.getMeters().stream()
            .filter(m -> m.getId().getName().startsWith("sluice.vending."))
            .toList();
    assertThat(vendingMeters)
        .isNotEmpty()
        .allSatisfy(m -> assertThat(m.getId().getTag("backend")).isEqualTo(metricsTag()));
  }

  // ---- helpers ----

  /**
   * The generic escape corpus (as in {@code LocationSafetyTest}) around {@code allowed}: none may
   * be vended for, whatever the backend.
   */
  static List<String> escapeCorpus(String allowed) {
    StorageLocation root = StorageLocation.parse(allowed);
    assertThat(root.segments()).as("the allowed location has a path").isNotEmpty();
    String scheme = root.scheme();
    String authority = root.authority();
    String path = "/" + String.join("/", root.segments());
    String store = scheme + "://" + authority;
    return List.of(
        allowed + "2/ns/t", // sibling prefix, not a child
        allowed.substring(0, allowed.length() - 1), // a prefix of the allowed location
        store + "/", // container root
        store, // container only
        scheme + "://other-" + authority + path + "/ns/t", // another container
        store + "-other" + path + "/t", // a container name that starts the same
        (scheme.equals("gs") ? "s3" : "gs") + "://" + authority + path + "/ns/t", // scheme
        "file:" + path + "/ns/t", // local path
        allowed + "/../secrets", // relative segment
        allowed + "/./t", // current-dir segment
        allowed + "/ns/../../x", // climbs out
        allowed + "/%2e%2e/secrets", // encoded ..
        allowed + "/%2E%2E/secrets", // encoded .. upper-case
        allowed + "/.%2e/secrets", // half-encoded ..
        allowed + "/%252e%252e/secrets", // double-encoded ..
        allowed + "/ns%2f..%2fx", // encoded slash hides a segment
        allowed + "/ns%2Ft", // encoded slash
        allowed + "/ns/t?x=1", // query
        allowed + "/ns/t?", // IAM single-char wildcard
        allowed + "/ns/t#frag", // fragment
        allowed + "/ns/t\u0000", // NUL
        allowed + "/ns/t\nx", // newline
        allowed + "/ns/t%0a", // encoded newline
        allowed + "/ns/t%00", // encoded NUL
        allowed + "\\..\\x", // backslash
        allowed + "/ns/t%5c..", // encoded backslash
        allowed + "/%zz", // malformed percent-encoding
        "", // empty
        scheme + "://*" + path + "/t", // wildcard container
        allowed + "/" + "x".repeat(LocationSafety.MAX_LOCATION_BYTES)); // too long
  }

  protected final StorageProfile profile(String catalog, ObjectNode info) {
    return backends()
        .parse(catalog, info, allowedLocation(), sources(), shortestLifetimeSeconds())
        .profile();
  }

  protected final List<StorageCredential> vend(
      StorageProfile profile, String location, Map<String, String> properties, AccessMode mode) {
    TreeMap<String, String> attribution = new TreeMap<>();
    attribution.put("principal", "contract-user");
    attribution.put("catalog", profile.catalog());
    attribution.put("namespace", "ns");
    attribution.put("table", "t");
    return service.vend(
        profile,
        new LocationPolicy(profile.catalog(), profile.allowedLocations()),
        location,
        properties,
        mode,
        attribution);
  }

  protected final PlanCredentials vendForFiles(
      StorageProfile profile, String location, List<String> files) {
    TreeMap<String, String> attribution = new TreeMap<>();
    attribution.put("principal", "contract-user");
    attribution.put("catalog", profile.catalog());
    attribution.put("namespace", "ns");
    attribution.put("table", "t");
    return service.vendForFiles(
        profile,
        new LocationPolicy(profile.catalog(), profile.allowedLocations()),
        location,
        Map.of(),
        files,
        attribution);
  }

  /**
   * The vended credential an engine would pick for {@code location}: the longest prefix the
   * location's string starts with (Iceberg's rule); fails when none does.
   */
  private static StorageCredential covering(List<StorageCredential> vended, String location) {
    return vended.stream()
        .filter(c -> location.startsWith(c.prefix()))
        .max(java.util.Comparator.comparingInt(c -> c.prefix().length()))
        .or(() -> coveringParsed(vended, location))
        .orElseThrow(
            () -> new AssertionError("No vended credential covers " + location + ": " + vended));
  }

  /** The vended credential whose prefix covers {@code location}; fails when none does. */
  private static Optional<StorageCredential> coveringParsed(
      List<StorageCredential> vended, String location) {
    StorageLocation target = StorageLocation.parse(location);
    return vended.stream()
        .filter(c -> StorageLocation.parse(c.prefix()).covers(target))
        .findFirst();
  }

  private double count(String suffix) {
    Counter counter =
        registry.find(VendorMetrics.name(suffix)).tag("backend", metricsTag()).counter();
    assertThat(counter).as("%s tagged backend=%s", suffix, metricsTag()).isNotNull();
    return counter.count();
  }

  private Timer latency() {
    Timer timer =
        registry.find(VendorMetrics.name("provider.latency")).tag("backend", metricsTag()).timer();
    assertThat(timer).as("provider.latency tagged backend=%s", metricsTag()).isNotNull();
    return timer;
  }

  private static void assertAllowed(Answer answer, String what) {
    assertThat(answer.allowed()).as("%s: the store answered %s", what, answer.status()).isTrue();
  }

  private static void assertRefused(Answer answer, String what) {
    assertThat(answer.refused()).as("%s: the store answered %s", what, answer.status()).isTrue();
  }
}
