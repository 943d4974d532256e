package dev.sluice.vending;

import static java.util.Objects.requireNonNull;

import com.github.benmanes.caffeine.cache.Cache;
import com.github.benmanes.caffeine.cache.Caffeine;
import com.github.benmanes.caffeine.cache.Expiry;
import dev.sluice.location.LocationPolicy;
import dev.sluice.location.LocationSafety;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import io.opentelemetry.api.OpenTelemetry;
import io.opentelemetry.api.common.AttributeKey;
import io.opentelemetry.api.trace.Span;
import io.opentelemetry.api.trace.SpanKind;
import io.opentelemetry.api.trace.StatusCode;
import io.opentelemetry.api.trace.Tracer;
import io.opentelemetry.context.Context;
import io.opentelemetry.context.Scope;
import java.time.Duration;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.SortedMap;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.SynchronousQueue;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Vends a table's credentials, the same way for every backend: checks that every location the table
 * uses is safe (the generic escape checks, allowedLocations, then the backend's own rules),
 * otherwise vends nothing with a warning; then asks the profile's vendor through a cache.
 *
 * <p>Cache key: the profile plus the vendor's own key (only what changes the credential); an entry
 * lives min(remaining lifetime / 2, a cap); concurrent misses for one key make one provider call;
 * failures are not cached (and are shared by the misses waiting on one call); the size is bounded.
 * While a provider fails, a credential vended before is served until a minute before it expires
 * ({@link #STALE_MIN_REMAINING}). Metrics: {@code sluice.vending.{cache.hits, cache.misses,
 * provider.calls, errors, stale.served}} and the vendor's {@code provider.latency}, each tagged
 * {@code backend}.
 */
public final class VendingService implements AutoCloseable {
  private static final Logger LOG = LoggerFactory.getLogger(VendingService.class);

  record Key(StorageProfile profile, Object vendorKey) {}

  private final StorageBackends backends;
  private final Map<String, CredentialSource> sources;
  private final MeterRegistry registry;
  private final Duration ttlCap;
  private final Cache<Key, List<StorageCredential>> cache;

  /**
   * The last credential vended per key, kept until {@link #STALE_MIN_REMAINING} before it expires:
   * served when its provider fails after the fresh entry ({@link #cache}) expired.
   */
  private final Cache<Key, List<StorageCredential>> stillValid;

  private final ConcurrentHashMap<Key, CompletableFuture<List<StorageCredential>>> inFlight =
      new ConcurrentHashMap<>();

  /**
   * Profiles whose provider failed, and when (nanoTime): for {@link #FAILING_NANOS} after, a load
   * with a still-valid credential gets it at once instead of waiting out the provider's timeout.
   */
  private final ConcurrentHashMap<StorageProfile, Long> failing = new ConcurrentHashMap<>();

  private static final long FAILING_NANOS = Duration.ofSeconds(5).toNanos();

  /**
   * While its provider is down, a credential vended before is served as long as it stays valid for
   * at least this long, so that an engine can still use it (and refresh after it).
   */
  public static final Duration STALE_MIN_REMAINING = Duration.ofMinutes(1);

  /**
   * Provider calls run on these threads, so that a load waits at most {@link #providerWait} for one
   * whatever its client library does (google-auth waits 20 s per attempt, and retries). At most
   * {@value #MAX_PROVIDER_CALLS} at once: a provider that hangs holds that many threads, and a miss
   * beyond them fails at once.
   */
  private final ThreadPoolExecutor providerCalls =
      new ThreadPoolExecutor(
          0,
          MAX_PROVIDER_CALLS,
          30,
          TimeUnit.SECONDS,
          new SynchronousQueue<>(),
          VendingService::providerCallThread);

  private static final int MAX_PROVIDER_CALLS = 16;
  private static final AtomicInteger PROVIDER_CALL_THREADS = new AtomicInteger();

  private static Thread providerCallThread(Runnable r) {
    Thread t = new Thread(r, "vending-provider-call-" + PROVIDER_CALL_THREADS.incrementAndGet());
    t.setDaemon(true);
    return t;
  }

  private final StorageTimeouts.Provider timeouts;
  private final Duration providerWait;
  private volatile Tracer tracer = OpenTelemetry.noop().getTracer("dev.sluice");
  private static final AttributeKey<String> CATALOG = AttributeKey.stringKey("sluice.catalog");

  private final CatalogClients<Optional<CredentialVendor>> vendors;
  private final CatalogClients<Optional<RequestSigner>> signers;
  private final Map<String, Meters> meters = new ConcurrentHashMap<>(); // by storage type

  private record Meters(
      VendorMetrics vendor,
      Counter hits,
      Counter misses,
      Counter calls,
      Counter errors,
      Counter staleServed,
      Counter signingHits,
      Counter signingMisses) {}

  /**
   * @param timeouts the provider calls' bounds ({@code storage.providerTimeouts}), which each
   *     vendor and signer is opened with, and the longest a load waits for one ({@code
   *     storage.providerWait})
   */
  public VendingService(
      StorageBackends backends,
      Map<String, CredentialSource> sources,
      Duration ttlCap,
      long maxEntries,
      MeterRegistry metrics,
      StorageTimeouts.Provider timeouts) {
    this(backends, sources, ttlCap, maxEntries, metrics, Duration.ofSeconds(30), timeouts);
  }

  /** And with the grace before a replaced vendor is closed (tests use short ones). */
  VendingService(
      StorageBackends backends,
      Map<String, CredentialSource> sources,
      Duration ttlCap,
      long maxEntries,
      MeterRegistry metrics,
      Duration vendorGrace,
      StorageTimeouts.Provider timeouts) {
    this.timeouts = requireNonNull(timeouts, "timeouts");
    this.providerWait = timeouts.loadWait();
    this.backends = requireNonNull(backends, "backends");
    this.sources = Map.copyOf(requireNonNull(sources, "sources"));
    this.registry = requireNonNull(metrics, "metrics");
    this.ttlCap = requireNonNull(ttlCap, "ttlCap");
    this.cache = Caffeine.newBuilder().maximumSize(maxEntries).expireAfter(new HalfLife()).build();
    this.stillValid =
        Caffeine.newBuilder().maximumSize(maxEntries).expireAfter(new UntilStale()).build();
    this.vendors =
        new CatalogClients<>(
            "credential vendor",
            vendor -> vendor.ifPresent(CredentialVendor::close),
            Duration.ofMinutes(30),
            vendorGrace);
    this.signers =
        new CatalogClients<>(
            "request signer",
            signer -> signer.ifPresent(RequestSigner::close),
            Duration.ofMinutes(30),
            vendorGrace);
  }

  /** The server's credential sources by name, for validating catalog definitions. */
  public Map<String, CredentialSource> sources() {
    return sources;
  }

  /**
   * Credentials for a table's locations, or an empty list when nothing may be vended (an unsafe
   * location, or a backend that never vends), which is logged as a warning. Provider failures throw
   * {@link VendingException}: a vending load never silently answers without one.
   */
  public List<StorageCredential> vend(
      StorageProfile profile,
      LocationPolicy policy,
      String tableLocation,
      Map<String, String> tableProperties,
      AccessMode mode,
      SortedMap<String, String> attribution) {
    Meters m = meters(profile);
    Optional<Prepared> prepared =
        prepare(profile, policy, tableLocation, tableProperties, mode, attribution, m);
    if (prepared.isEmpty()) {
      return List.of();
    }
    return cached(profile, prepared.get().vendor(), prepared.get().request(), m);
  }

  /**
   * Read credentials covering exactly {@code files} of a table, as narrow as the profile's backend
   * can express ({@link FileScopes}): the exact objects if the backend can name them and they fit
   * its limit, else the fewest directory prefixes that fit, else the table's locations (what {@link
   * #vend} gives). Cached like {@link #vend} (the vendor's key includes the scope). Empty
   * credentials, with a TABLE scope, when the profile vends nothing.
   *
   * @throws IllegalArgumentException naming the first file that is not an object inside the table's
   *     locations (segment by segment)
   */
  public PlanCredentials vendForFiles(
      StorageProfile profile,
      LocationPolicy policy,
      String tableLocation,
      Map<String, String> tableProperties,
      Collection<String> files,
      SortedMap<String, String> attribution) {
    List<String> locations = LocationPolicy.locationsOf(tableLocation, tableProperties);
    FileScopes.requireInside(locations, files);
    Meters m = meters(profile);
    Optional<Prepared> prepared =
        prepare(profile, policy, tableLocation, tableProperties, AccessMode.READ, attribution, m);
    if (prepared.isEmpty()) {
      return new PlanCredentials(
          List.of(), new FileScope(FileScope.Narrowness.TABLE, List.of(), locations));
    }
    CredentialVendor vendor = prepared.get().vendor();
    VendingRequest table = prepared.get().request();
    FileScope scope = PlanScoping.scope(vendor, policy, table, files);
    return new PlanCredentials(
        cached(profile, vendor, PlanScoping.request(table, scope), m), scope);
  }

  /** Through the cache (single-flighted, stale-while-failing), as {@link #vend} describes. */
  private List<StorageCredential> cached(
      StorageProfile profile, CredentialVendor vendor, VendingRequest request, Meters m) {
    Key key = new Key(profile, vendor.cacheKey(request));
    List<StorageCredential> cached = cache.getIfPresent(key);
    if (cached != null) {
      m.hits().increment();
      return cached;
    }
    m.misses().increment();
    List<StorageCredential> before = stillValid(key);
    Long failedAt = failing.get(profile);
    if (before != null && failedAt != null && System.nanoTime() - failedAt < FAILING_NANOS) {
      // Its provider failed just now: serve what is still valid without waiting on it again.
      m.staleServed().increment();
      return before;
    }
    try {
      List<StorageCredential> vended = load(key, profile, () -> call(profile, vendor, request, m));
      failing.remove(profile);
      return vended;
    } catch (VendingException e) {
      m.errors().increment();
      failing.put(profile, System.nanoTime());
      before = stillValid(key);
      if (before != null) {
        m.staleServed().increment();
        LOG.warn(
            "{}; serving the credential vended before, valid for {} s more",
            e.getMessage(),
            (expiresAtMs(before) - System.currentTimeMillis()) / 1000);
        return before;
      }
      LOG.warn("{}", e.getMessage());
      throw e;
    }
  }

  /** The last credential vended for {@code key} if it stays valid a minute more, else null. */
  private List<StorageCredential> stillValid(Key key) {
    List<StorageCredential> before = stillValid.getIfPresent(key);
    long leftMs = before == null ? 0 : expiresAtMs(before) - System.currentTimeMillis();
    return leftMs >= STALE_MIN_REMAINING.toMillis() ? before : null;
  }

  /**
   * One provider call for concurrent misses of one key, whose failure all of them share: a provider
   * that times out costs a queue of loads one timeout, not one each in turn. Each waits at most
   * {@link #providerWait}; the call itself goes on (to its library's own timeout) and, if it
   * succeeds late, fills the cache for the next load.
   */
  private List<StorageCredential> load(
      Key key, StorageProfile profile, Supplier<List<StorageCredential>> call) {
    CompletableFuture<List<StorageCredential>> mine = new CompletableFuture<>();
    CompletableFuture<List<StorageCredential>> running = inFlight.putIfAbsent(key, mine);
    if (running == null) {
      // A call for this key may have finished between the caller's cache miss and now: it filled
      // the cache before leaving inFlight, so a second look finds its answer without a new call.
      List<StorageCredential> filled = cache.getIfPresent(key);
      if (filled != null) {
        mine.complete(filled); // for a load that joined it meanwhile
        inFlight.remove(key, mine);
        return filled;
      }
      running = mine;
      // The request's trace, continued on the provider call's thread.
      Context parent = Context.current();
      try {
        providerCalls.execute(
            () -> {
              // Out of inFlight before the waiters wake: a load right after must not find this
              // finished call and take its answer (or its failure) without asking again.
              // The span ends before the waiters wake, so it ends within its request's span.
              Span span = providerSpan(parent, profile);
              List<StorageCredential> vended;
              try (Scope ignored = span.makeCurrent()) {
                vended = call.get();
              } catch (RuntimeException | Error e) {
                span.setStatus(StatusCode.ERROR, e.getClass().getSimpleName());
                span.end();
                inFlight.remove(key, mine); // never left behind: the key would wait forever
                mine.completeExceptionally(e);
                return;
              }
              span.end();
              try {
                cache.put(key, vended);
                stillValid.put(key, vended);
              } finally {
                inFlight.remove(key, mine);
                mine.complete(vended);
              }
            });
      } catch (RejectedExecutionException e) {
        inFlight.remove(key, mine);
        throw new VendingException(
            "Cannot vend credentials for catalog "
                + profile.catalog()
                + ": "
                + MAX_PROVIDER_CALLS
                + " calls to credential providers are already waiting for an answer",
            0,
            e);
      }
    }
    try {
      return running.get(providerWait.toNanos(), TimeUnit.NANOSECONDS);
    } catch (ExecutionException e) {
      throw e.getCause() instanceof RuntimeException r ? r : new IllegalStateException(e);
    } catch (TimeoutException e) {
      throw new VendingException(
          "Cannot vend credentials for catalog "
              + profile.catalog()
              + ": its credential provider did not answer within "
              + providerWait.toMillis()
              + " ms",
          0,
          e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new VendingException(
          "Cannot vend credentials for catalog " + profile.catalog() + ": interrupted", 0, e);
    }
  }

  /** From now on, provider calls made for a traced request are spans of their own. */
  public void bindTracing(Tracer tracer) {
    this.tracer = requireNonNull(tracer, "tracer");
  }

  /**
   * The span of one credential-provider call (STS, Google's token exchange, Entra, R2's API), a
   * child of the request that caused it; invalid (recording nothing) outside a traced request.
   */
  private Span providerSpan(Context parent, StorageProfile profile) {
    if (!Span.fromContext(parent).getSpanContext().isValid()) {
      return Span.getInvalid();
    }
    return tracer
        .spanBuilder("vend " + profile.storageType())
        .setParent(parent)
        .setSpanKind(SpanKind.CLIENT)
        .setAttribute(CATALOG, profile.catalog())
        .startSpan();
  }

  private static long expiresAtMs(List<StorageCredential> credentials) {
    return credentials.stream().mapToLong(StorageCredential::expiresAtMs).min().orElse(0);
  }

  /**
   * Like {@link #vend}, with the same safety checks and the catalog's own vendor, but never from or
   * into the cache: the storage self-check needs credentials the store has just issued.
   */
  public List<StorageCredential> vendUncached(
      StorageProfile profile,
      LocationPolicy policy,
      String tableLocation,
      AccessMode mode,
      SortedMap<String, String> attribution) {
    Meters m = meters(profile);
    Optional<Prepared> prepared =
        prepare(profile, policy, tableLocation, Map.of(), mode, attribution, m);
    if (prepared.isEmpty()) {
      return List.of();
    }
    try {
      return call(profile, prepared.get().vendor(), prepared.get().request(), m);
    } catch (VendingException e) {
      m.errors().increment();
      throw e;
    }
  }

  /**
   * A new vendor for {@code profile}, apart from the catalog's (the self-check's short-lived
   * credentials use a profile of their own, which must not replace the catalog's vendor); empty
   * when the profile never vends. The caller closes it.
   */
  public Optional<CredentialVendor> openVendor(StorageProfile profile) {
    try {
      return backends.openVendor(profile, sources, meters(profile).vendor(), timeouts);
    } catch (StorageBackends.MissingCredentialSource e) {
      throw new VendingException("Cannot vend credentials: " + e.getMessage(), 0, e);
    }
  }

  private record Prepared(CredentialVendor vendor, VendingRequest request) {}

  /** The vendor and request for a table, or empty (logged) when nothing may be vended. */
  private Optional<Prepared> prepare(
      StorageProfile profile,
      LocationPolicy policy,
      String tableLocation,
      Map<String, String> tableProperties,
      AccessMode mode,
      SortedMap<String, String> attribution,
      Meters m) {
    Optional<CredentialVendor> opened;
    try {
      opened = vendors.get(profile, p -> backends.openVendor(p, sources, m.vendor(), timeouts));
    } catch (StorageBackends.MissingCredentialSource e) {
      m.errors().increment();
      throw new VendingException("Cannot vend credentials: " + e.getMessage(), 0, e);
    }
    if (opened.isEmpty()) {
      LOG.warn(
          "Not vending credentials for {}: catalog {} ({}) does not vend",
          attribution.get("table"),
          profile.catalog(),
          profile.storageType());
      return Optional.empty();
    }
    CredentialVendor vendor = opened.get();
    List<String> locations =
        LocationPolicy.locationsOf(tableLocation, tableProperties).stream().sorted().toList();
    Optional<String> unsafe = unscopable(vendor, policy, locations);
    if (unsafe.isPresent()) {
      LOG.warn(
          "Not vending credentials for {} in catalog {}: {}",
          attribution.get("table"),
          profile.catalog(),
          unsafe.get());
      return Optional.empty();
    }
    return Optional.of(
        new Prepared(
            vendor,
            new VendingRequest(
                tableLocation, locations, mode, attribution.get("principal"), attribution)));
  }

  /**
   * Why {@code vendor} cannot confine one credential to {@code locations} (one unsafe, outside
   * {@code policy}, or a set the backend cannot scope together), or empty.
   */
  private static Optional<String> unscopable(
      CredentialVendor vendor, LocationPolicy policy, List<String> locations) {
    for (String location : locations) {
      Optional<String> unsafe =
          LocationSafety.unsafe(location, policy).or(() -> vendor.unsafe(location));
      if (unsafe.isPresent()) {
        return Optional.of("a location is unsafe (" + unsafe.get() + ")");
      }
    }
    return vendor.unscopable(locations);
  }

  private static List<StorageCredential> call(
      StorageProfile profile, CredentialVendor vendor, VendingRequest request, Meters m) {
    m.calls().increment();
    List<StorageCredential> vended = List.copyOf(vendor.vend(request));
    if (vended.isEmpty()) {
      throw new VendingException(
          "Cannot vend credentials for catalog " + profile.catalog() + ": the vendor returned none",
          0,
          null);
    }
    return vended;
  }

  /**
   * The remote signer of {@code profile}. Throws {@link VendingException} when the catalog does not
   * offer remote signing (or its credential source is gone): a route asks only after {@link
   * StorageProfile#offered} says it does.
   */
  public RequestSigner signer(StorageProfile profile) {
    Optional<RequestSigner> signer;
    try {
      signer =
          signers.get(profile, p -> backends.openSigner(p, sources, meters(p).vendor(), timeouts));
    } catch (StorageBackends.MissingCredentialSource e) {
      throw new VendingException("Cannot sign: " + e.getMessage(), 0, e);
    }
    return signer.orElseThrow(
        () ->
            new VendingException(
                "Catalog " + profile.catalog() + " does not offer remote signing", 0, null));
  }

  /**
   * Signs {@code request} for one table ({@code locations}, its claimed locations; {@code mode},
   * what the caller may do there) with a credential the store confines to exactly that: the
   * signer's {@link RequestSigner#scopedIdentity()}, cached and single-flighted like a vended
   * credential (an entry lives half the credential's remaining lifetime, at most the cap), so a
   * header added after signing can do at most what a vended credential could. Without a scoped
   * identity (the operator accepted signing as the catalog) it signs with none. Throws {@link
   * IllegalArgumentException} when the table's locations cannot be scoped (nothing is signed), and
   * {@link VendingException} when the provider fails.
   */
  public SignedRequest sign(
      StorageProfile profile,
      LocationPolicy policy,
      List<String> locations,
      AccessMode mode,
      SortedMap<String, String> attribution,
      StorageRequest request) {
    RequestSigner signer = signer(profile);
    Optional<CredentialVendor> scoped = signer.scopedIdentity();
    if (scoped.isEmpty()) {
      return signer.sign(request, Optional.empty());
    }
    CredentialVendor vendor = scoped.get();
    List<String> sorted = locations.size() == 1 ? locations : locations.stream().sorted().toList();
    VendingRequest vendingRequest =
        new VendingRequest(sorted.get(0), sorted, mode, attribution.get("principal"), attribution);
    Key key = new Key(profile, new SigningKey(vendor.cacheKey(vendingRequest)));
    Meters m = meters(profile);
    List<StorageCredential> identity = cache.getIfPresent(key);
    if (identity != null) {
      m.signingHits().increment();
    } else {
      m.signingMisses().increment();
      try {
        // The locations are checked on a miss only: the key holds them and the profile (its
        // allowedLocations), so a hit is for locations already found scopable.
        identity =
            cache.get(
                key,
                k -> {
                  Optional<String> why = unscopable(vendor, policy, sorted);
                  if (why.isPresent()) {
                    throw new IllegalArgumentException(
                        "the table's locations cannot be scoped in a signing credential: "
                            + why.get());
                  }
                  return call(profile, vendor, vendingRequest, m);
                });
      } catch (VendingException e) {
        m.errors().increment();
        LOG.warn("{}", e.getMessage());
        throw e;
      }
    }
    return signer.sign(request, Optional.of(identity.get(0)));
  }

  /** Whether {@code profile}'s signatures are made with an identity the store confines. */
  public boolean signsScoped(StorageProfile profile) {
    return signer(profile).scopedIdentity().isPresent();
  }

  /**
   * The identity remote signing would sign with for {@code tableLocation} in {@code mode}, minted
   * now by the signer's scoped vendor and never cached: the storage self-check proves with it that
   * the store confines signatures. Empty when the profile signs as the catalog (unscoped).
   */
  public Optional<List<StorageCredential>> signingIdentityUncached(
      StorageProfile profile,
      LocationPolicy policy,
      String tableLocation,
      AccessMode mode,
      SortedMap<String, String> attribution) {
    Optional<CredentialVendor> scoped = signer(profile).scopedIdentity();
    if (scoped.isEmpty()) {
      return Optional.empty();
    }
    List<String> locations = List.of(tableLocation);
    Optional<String> why = unscopable(scoped.get(), policy, locations);
    if (why.isPresent()) {
      throw new VendingException("Cannot scope a signing identity: " + why.get(), 0, null);
    }
    VendingRequest request =
        new VendingRequest(
            tableLocation, locations, mode, attribution.get("principal"), attribution);
    return Optional.of(call(profile, scoped.get(), request, meters(profile)));
  }

  /** A signing identity's cache key: apart from vended credentials, which leave the server. */
  private record SigningKey(Object vendorKey) {}

  /**
   * Retires the vendor of a catalog that changed or was dropped on this replica (closed after a
   * grace period). A change on another replica shows as a new profile at the next vend.
   */
  public void retire(String catalog) {
    vendors.retire(catalog);
    signers.retire(catalog);
  }

  /**
   * Registers the meters of every backend now, so that {@code /metrics} shows them at zero from
   * start-up rather than from the first vend (alerts on a rate need the series to exist).
   */
  public void registerMeters() {
    backends.storageTypes().forEach(this::meters);
  }

  private Meters meters(StorageProfile profile) {
    return meters(profile.storageType());
  }

  private Meters meters(String storageType) {
    // Keyed by the storage type as it is (no per-vend lower-casing); tagged by the metrics tag.
    return meters.computeIfAbsent(
        storageType,
        type -> {
          VendorMetrics vendor = new VendorMetrics(registry, StorageBackends.metricsTag(type));
          return new Meters(
              vendor,
              counter("cache.hits", "Vends answered from the cache", vendor),
              counter("cache.misses", "Vends not in the cache", vendor),
              counter("provider.calls", "Calls to the credential provider", vendor),
              counter("errors", "Vends that failed", vendor),
              counter(
                  "stale.served",
                  "Vends answered, while the provider failed, with a credential vended before and"
                      + " still valid",
                  vendor),
              counter(
                  "signing.cache.hits", "Signatures made with a cached scoped identity", vendor),
              counter(
                  "signing.cache.misses",
                  "Signatures that first minted their scoped identity",
                  vendor));
        });
  }

  private Counter counter(String suffix, String description, VendorMetrics vendor) {
    return Counter.builder(VendorMetrics.name(suffix))
        .description(description)
        .tags(vendor.tags())
        .register(registry);
  }

  /** An entry lives half its earliest credential's remaining lifetime, at most the cap. */
  /** An expiry fixed when an entry is written (or written again), not moved by reads. */
  private abstract static class SetOnWrite implements Expiry<Key, List<StorageCredential>> {
    @Override
    public long expireAfterUpdate(
        Key key, List<StorageCredential> value, long currentTime, long currentDuration) {
      return expireAfterCreate(key, value, currentTime);
    }

    @Override
    public long expireAfterRead(
        Key key, List<StorageCredential> value, long currentTime, long currentDuration) {
      return currentDuration;
    }
  }

  /** Until {@link #STALE_MIN_REMAINING} before the credential expires. */
  private static final class UntilStale extends SetOnWrite {
    @Override
    public long expireAfterCreate(Key key, List<StorageCredential> value, long currentTime) {
      long ms = expiresAtMs(value) - System.currentTimeMillis() - STALE_MIN_REMAINING.toMillis();
      return Duration.ofMillis(Math.max(0, ms)).toNanos();
    }
  }

  private final class HalfLife extends SetOnWrite {
    @Override
    public long expireAfterCreate(Key key, List<StorageCredential> value, long currentTime) {
      long remainingMs = expiresAtMs(value) - System.currentTimeMillis();
      long ms = Math.max(0, Math.min(remainingMs / 2, ttlCap.toMillis()));
      return Duration.ofMillis(ms).toNanos();
    }
  }

  @Override
  public void close() {
    providerCalls.shutdownNow();
    vendors.close();
    signers.close();
  }
}
