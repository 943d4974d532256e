package dev.sluice.store;

import static java.util.Objects.requireNonNull;

import com.github.benmanes.caffeine.cache.Cache;
import com.github.benmanes.caffeine.cache.Caffeine;
import io.micrometer.core.instrument.FunctionCounter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicLongArray;
import java.util.concurrent.atomic.LongAdder;
import java.util.function.Supplier;

/**
 * Table and view pointers ({@link Store#getContent}) by name, so a load need not read the database.
 * Only reads are served from here: every commit is still a compare-and-set in the database, so a
 * stale entry can at worst fail a commit (and a failed commit evicts it).
 *
 * <p>Coherence: every change to a pointer evicts its entry, here ({@link #settled}, by the replica
 * that made it) and on every replica ({@link #changed}, from the change feed). A read that began
 * before an invalidation is never cached: each key hashes to a stripe whose stamp every
 * invalidation bumps <em>before</em> it evicts; a read notes the stamp before it goes to the
 * database, puts its value, then takes it out again if the stamp moved. Either the invalidation's
 * eviction comes after the put, or its bump is seen by the re-check.
 *
 * <p>While the change feed is down ({@link #feedLost}) nothing is served from or put into the
 * cache: a notification may have been missed. {@link #feedRestored}, called once the replica
 * listens again, flushes everything and serves again.
 *
 * <p>Never behind what this replica has shown: with a feed, a read from the database may see a
 * commit whose notification has not arrived yet (this replica's own, or another's), so the cache
 * still holds pointers from before it. Serving those next would tear a multi-table commit (table A
 * new, table B old) or step back in time. So nothing is served from the cache until the feed has
 * caught up with what this replica has shown. A change this replica committed waits for its own
 * notification ({@link #settled}); a read of a newer version than the feed named waits for that
 * version's ({@link #awaitIfAhead}). A read the feed has nothing to compare with (a pointer
 * unchanged since subscribing, a missing one), or a change whose outcome is unknown, asks for a
 * <em>barrier</em>: a notification of its own, sent after it ({@link #barriersWanted}, sent by the
 * listener). PostgreSQL delivers notifications in commit order, so once either comes back every
 * commit that was seen has been delivered. Barriers coalesce: one answers every request made before
 * it was sent.
 *
 * <p>Pages of a namespace's table or view names ({@link #listing}) are kept by the same rules: a
 * change to any pointer of a namespace (a create, drop, rename or commit, here or from the feed)
 * bumps that namespace's stamp, and a page is served only while the stamp it was read under stands,
 * and only when a pointer could be (feed healthy, caught up). A listing then costs no database
 * round trip while its namespace is unchanged: on PostgreSQL that round trip was most of a page's
 * cost (issue 42).
 */
public final class PointerCache {
  /** The key of a pointer: catalog, namespace key ({@link NamespacePath#key()}), name. */
  public record Key(String catalog, String namespace, String name) {
    public Key {
      requireNonNull(catalog, "catalog");
      requireNonNull(namespace, "namespace");
      requireNonNull(name, "name");
    }

    static Key of(String catalog, NamespacePath ns, String name) {
      return new Key(catalog, ns.key(), name);
    }
  }

  /** A page of {@link Store#listContents}: catalog, namespace key, kind, and the request. */
  record ListingKey(String catalog, String namespace, ContentKind kind, String after, int size) {}

  /** A page as read under its namespace's stamp. */
  private record Listed(Page<String> page, long stamp) {}

  private static final int STRIPES = 1024;

  /** Names held in cached listing pages at most (a page weighs its names plus one). */
  static final long MAX_LISTED_NAMES = 200_000;

  private final boolean enabled;
  private final boolean feed;
  private final Cache<Key, Optional<ContentRecord>> cache;
  // With a feed: the version each pointer's last notification named, to tell a read that only
  // shows what the feed delivered from one that is ahead of it.
  private final Cache<Key, Long> announced;
  private final AtomicLong barriersWanted = new AtomicLong();
  private final AtomicLong barriersEchoed = new AtomicLong();
  private volatile Runnable barrierWanted = () -> {};
  private final AtomicLong applying = new AtomicLong(); // odd while a notification is applied
  // With a feed: changes this replica has shown (committed, or read) whose notification has not
  // come in yet, and since when.
  private final ConcurrentHashMap<PointerChange, Long> pending = new ConcurrentHashMap<>();

  /** How long a change may be awaited before a barrier stands in for its notification. */
  static final long PENDING_MAX_NANOS = 5_000_000_000L;

  /** {@link #PENDING_MAX_NANOS}; a test shortens it. */
  volatile long pendingMaxNanos = PENDING_MAX_NANOS;

  private final AtomicLongArray stamps = new AtomicLongArray(STRIPES);
  // Per namespace (striped): bumped with every pointer change in it, before any eviction.
  private final AtomicLongArray namespaceStamps = new AtomicLongArray(STRIPES);
  private final Cache<ListingKey, Listed> listings;
  private volatile boolean healthy;
  private final LongAdder hits = new LongAdder();
  private final LongAdder misses = new LongAdder();
  private final LongAdder bypasses = new LongAdder();
  private final LongAdder behind = new LongAdder();
  private final LongAdder received = new LongAdder();
  private final LongAdder resubscribes = new LongAdder();
  private final LongAdder listingHits = new LongAdder();
  private final LongAdder listingMisses = new LongAdder();

  /** Test hook: runs after a read's (conditional) put. */
  volatile Runnable afterPut = () -> {};

  /**
   * @param feed whether a change feed keeps this cache coherent with other replicas: then nothing
   *     is served until the first {@link #feedRestored}. Without one (one process, H2) only local
   *     invalidations exist.
   */
  public PointerCache(boolean enabled, long maxEntries, boolean feed) {
    if (maxEntries < 1) {
      throw new IllegalArgumentException(
          "pointer cache maxEntries must be at least 1, got " + maxEntries);
    }
    this.enabled = enabled;
    this.feed = feed;
    this.cache = Caffeine.newBuilder().maximumSize(maxEntries).build();
    this.announced = Caffeine.newBuilder().maximumSize(feed ? maxEntries : 1).build();
    this.listings =
        Caffeine.newBuilder()
            .maximumWeight(enabled ? MAX_LISTED_NAMES : 1)
            .weigher((ListingKey k, Listed v) -> v.page().items().size() + 1)
            .build();
    this.healthy = !feed;
  }

  /** A cache that serves nothing: every read goes to the database. */
  public static PointerCache disabled() {
    return new PointerCache(false, 1, false);
  }

  /** The pointer at {@code key}: from the cache when it may serve, else from {@code load}. */
  Optional<ContentRecord> get(Key key, Supplier<Optional<ContentRecord>> load) {
    if (!enabled || !healthy) {
      bypasses.increment();
      return load.get();
    }
    boolean caughtUp = caughtUp();
    if (caughtUp) {
      Optional<ContentRecord> cached = cache.getIfPresent(key);
      if (cached != null) {
        hits.increment();
        return cached;
      }
      misses.increment();
    } else {
      behind.increment();
    }
    int stripe = stripe(key);
    long stamp = stamps.get(stripe);
    Optional<ContentRecord> loaded = load.get();
    if (!healthy) {
      return loaded;
    }
    // Before anyone can see it (the put below, the caller's answer): a read ahead of the feed.
    if (feed) {
      awaitIfAhead(key, loaded);
    }
    // Check and put under the entry's lock: an invalidation bumps the stamp before it evicts under
    // that lock, so it either stops this put or removes what it put. A put-then-recheck would let
    // another reader see the stale value in between.
    cache.asMap().compute(key, (k, old) -> stamps.get(stripe) == stamp && healthy ? loaded : old);
    afterPut.run();
    return loaded;
  }

  /**
   * A page of names in a namespace: from the cache while nothing in the namespace changed since it
   * was read, else from {@code load}. A page shows which pointers exist, not their versions, so a
   * read is not checked against the feed as a pointer is: it is never served while the cache is
   * behind, and any change the feed or this replica brings for the namespace voids it.
   */
  Page<String> listing(ListingKey key, Supplier<Page<String>> load) {
    if (!enabled || !healthy) {
      return load.get();
    }
    int stripe = namespaceStripe(key.catalog(), key.namespace());
    if (caughtUp()) {
      Listed cached = listings.getIfPresent(key);
      if (cached != null && cached.stamp() == namespaceStamps.get(stripe)) {
        listingHits.increment();
        return cached.page();
      }
    }
    listingMisses.increment();
    long stamp = namespaceStamps.get(stripe);
    Page<String> loaded = load.get();
    listings
        .asMap()
        .compute(
            key,
            (k, old) ->
                namespaceStamps.get(stripe) == stamp && healthy ? new Listed(loaded, stamp) : old);
    return loaded;
  }

  /**
   * {@code loaded}, just read from the database, may show a commit the feed has not delivered:
   * anything newer than the version the feed last named for {@code key}. Such a version is awaited
   * like an own change: it was committed after a change the feed delivered, so its notification is
   * on its way. A pointer unchanged since this replica subscribed has no notification to compare
   * with, and an absent one no version: a barrier settles those.
   */
  private void awaitIfAhead(Key key, Optional<ContentRecord> loaded) {
    Long named = announced.getIfPresent(key);
    if (loaded.isEmpty() || named == null) {
      wantBarrier();
    } else if (loaded.get().version() > named) {
      await(new PointerChange(key, loaded.get().version()), System.nanoTime());
    }
  }

  /** Serves nothing until the feed names {@code change} (or a later change of its pointer). */
  private void await(PointerChange change, long now) {
    pending.put(change, now);
    // Its notification may be in already (applied before the put): then it will not come again.
    // The feed puts the announcement before it removes, so one of the two removes it.
    Long named = announced.getIfPresent(change.key());
    if (named != null && named >= change.version()) {
      pending.remove(change);
    }
  }

  private boolean caughtUp() {
    return (applying.get() & 1) == 0
        && barriersEchoed.get() >= barriersWanted.get()
        && (pending.isEmpty() || settledByNow());
  }

  /**
   * Whether every awaited change's notification is in, after dropping those that waited too long (a
   * notification the bounded {@code announced} map forgot, or a version that was no change of its
   * own): a barrier then stands in for them.
   */
  private boolean settledByNow() {
    long now = System.nanoTime();
    boolean expired = pending.values().removeIf(at -> now - at > pendingMaxNanos);
    if (expired) {
      wantBarrier();
    }
    return pending.isEmpty() && barriersEchoed.get() >= barriersWanted.get();
  }

  private void wantBarrier() {
    barriersWanted.incrementAndGet();
    barrierWanted.run();
  }

  /** The barriers asked for so far; the listener sends one carrying the latest. */
  long barriersWanted() {
    return barriersWanted.get();
  }

  /** Runs whenever a barrier is wanted (the listener wakes its sender). */
  void onBarrierWanted(Runnable wake) {
    this.barrierWanted = requireNonNull(wake, "wake");
  }

  /**
   * The barrier carrying {@code generation} came back through the feed: every commit that the reads
   * asking for barriers up to it saw has been delivered.
   */
  void barrierEchoed(long generation) {
    barriersEchoed.accumulateAndGet(generation, Math::max);
  }

  /**
   * A write of the pointers at {@code keys} by this replica is over: they are forgotten. {@code
   * committed} is what it committed, null if it failed; {@code maybeApplied} says whether a failed
   * one may have been applied all the same (the database's COMMIT outcome is unknown). The caller
   * is about to answer what it wrote, and the cache may hold what that write was based on: nothing
   * is served until the feed brings the committed changes back, or, for an unknown outcome, a
   * barrier. A write refused before its COMMIT changed nothing and waits for nothing.
   */
  void settled(List<Key> keys, List<PointerChange> committed, boolean maybeApplied) {
    for (Key key : keys) {
      namespaceStamps.incrementAndGet(namespaceStripe(key.catalog(), key.namespace()));
      stamps.incrementAndGet(stripe(key));
      cache.invalidate(key);
    }
    if (!feed) {
      return;
    }
    if (committed == null) {
      if (maybeApplied) {
        wantBarrier();
      }
      return;
    }
    long now = System.nanoTime();
    for (PointerChange change : committed) {
      await(change, now);
    }
  }

  /**
   * The change feed says the pointer at {@code key} changed to {@code version}. An entry holding
   * exactly that version is the changed state itself (versions are unique: one sequence) and stays;
   * anything else is evicted.
   */
  public void changed(Key key, long version) {
    changed(List.of(new PointerChange(key, version)));
  }

  /**
   * One notification's changes (one transaction's), applied as one: while they are, nothing is
   * served, so no reader sees one table of a multi-table commit new (read after its eviction) and
   * another old (before its eviction).
   */
  void changed(List<PointerChange> changes) {
    applying.incrementAndGet();
    try {
      for (PointerChange change : changes) {
        Key key = change.key();
        long version = change.version();
        received.increment();
        namespaceStamps.incrementAndGet(namespaceStripe(key.catalog(), key.namespace()));
        stamps.incrementAndGet(stripe(key));
        announced.put(key, version);
        // This change, and any earlier one of the pointer awaited (a read saw a version between).
        pending.keySet().removeIf(p -> p.key().equals(key) && p.version() <= version);
        cache
            .asMap()
            .computeIfPresent(
                key, (k, old) -> old.isPresent() && old.get().version() == version ? old : null);
      }
    } finally {
      applying.incrementAndGet();
    }
  }

  /** The feed says something changed that it could not name: forget everything. */
  public void changedAll() {
    received.increment();
    flush();
  }

  /** The change feed is down: stop serving from the cache until {@link #feedRestored}. */
  public void feedLost() {
    healthy = false;
  }

  /** Listening again: flush everything a missed notification could have made stale, then serve. */
  public void feedRestored() {
    // Whatever reads asked barriers for so far is older than everything cached from now on.
    barrierEchoed(barriersWanted.get());
    flush();
    resubscribes.increment();
    healthy = true;
  }

  /** Whether reads are served from the cache now. */
  public boolean serving() {
    return enabled && healthy;
  }

  public long hits() {
    return hits.sum();
  }

  public long misses() {
    return misses.sum();
  }

  private void flush() {
    for (int i = 0; i < STRIPES; i++) {
      namespaceStamps.incrementAndGet(i);
      stamps.incrementAndGet(i);
    }
    listings.invalidateAll();
    cache.invalidateAll();
    announced.invalidateAll();
    pending.clear();
  }

  private static int namespaceStripe(String catalog, String namespace) {
    int h = 31 * catalog.hashCode() + namespace.hashCode();
    return (h ^ (h >>> 16)) & (STRIPES - 1);
  }

  private static int stripe(Key key) {
    int h = key.hashCode();
    return (h ^ (h >>> 16)) & (STRIPES - 1);
  }

  /** Registers the cache's meters. */
  public void bindTo(MeterRegistry metrics) {
    requireNonNull(metrics, "metrics");
    counter(metrics, "cache.hits", hits, "Table/view pointer reads served from the cache");
    counter(
        metrics, "cache.misses", misses, "Pointer reads that went to the database and were cached");
    counter(
        metrics,
        "cache.bypasses",
        bypasses,
        "Pointer reads that went to the database uncached (cache off or change feed down)");
    counter(
        metrics,
        "cache.behind",
        behind,
        "Pointer reads that went to the database because this replica had shown a commit its"
            + " change feed had not delivered yet (until a barrier came back)");
    counter(
        metrics,
        "invalidations.received",
        received,
        "Pointer changes received from the change feed (other replicas' and our own commits)");
    counter(
        metrics,
        "listing.hits",
        listingHits,
        "Pages of table or view names served from the cache (their namespace unchanged)");
    counter(
        metrics,
        "listing.misses",
        listingMisses,
        "Pages of table or view names read from the database");
    counter(
        metrics,
        "listener.subscriptions",
        resubscribes,
        "Times the change feed was subscribed (again, after a loss) and the cache flushed");
    Gauge.builder("sluice.store.pointer.listener.healthy", this, c -> c.healthy ? 1 : 0)
        .description("1 while the cache may serve (change feed subscribed, or none needed)")
        .register(metrics);
  }

  private static void counter(
      MeterRegistry metrics, String name, LongAdder value, String description) {
    FunctionCounter.builder("sluice.store.pointer." + name, value, LongAdder::sum)
        .description(description)
        .register(metrics);
  }
}
