package dev.sluice.store;

import static java.util.Objects.requireNonNull;

import com.github.benmanes.caffeine.cache.Cache;
import com.github.benmanes.caffeine.cache.Caffeine;
import io.micrometer.core.instrument.FunctionCounter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicLongArray;
import java.util.concurrent.atomic.LongAdder;
import java.util.function.Supplier;

/**
 * Table and view pointers ({@link Store#getContent}) by name, so a load need not read the database.
 * Only reads are served from here: every commit is still a compare-and-set in the database, so a
 * stale entry can at worst fail a commit (and a failed commit evicts it).
 *
 * <p>Coherence: every change to a pointer evicts its entry, here ({@link #invalidate}, by the
 * replica that made it) and on every replica ({@link #changed}, from the change feed). A read that
 * began before an invalidation is never cached: each key hashes to a stripe whose stamp every
 * invalidation bumps <em>before</em> it evicts; a read notes the stamp before it goes to the
 * database, puts its value, then takes it out again if the stamp moved. Either the invalidation's
 * eviction comes after the put, or its bump is seen by the re-check.
 *
 * <p>While the change feed is down ({@link #feedLost}) nothing is served from or put into the
 * cache: a notification may have been missed. {@link #feedRestored}, called once the replica
 * listens again, flushes everything and serves again.
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

  private static final int STRIPES = 1024;

  private final boolean enabled;
  private final Cache<Key, Optional<ContentRecord>> cache;
  private final AtomicLongArray stamps = new AtomicLongArray(STRIPES);
  private volatile boolean healthy;
  private final LongAdder hits = new LongAdder();
  private final LongAdder misses = new LongAdder();
  private final LongAdder bypasses = new LongAdder();
  private final LongAdder received = new LongAdder();
  private final LongAdder resubscribes = new LongAdder();

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
    this.cache = Caffeine.newBuilder().maximumSize(maxEntries).build();
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
    Optional<ContentRecord> cached = cache.getIfPresent(key);
    if (cached != null) {
      hits.increment();
      return cached;
    }
    misses.increment();
    int stripe = stripe(key);
    long stamp = stamps.get(stripe);
    Optional<ContentRecord> loaded = load.get();
    if (!healthy) {
      return loaded;
    }
    // Check and put under the entry's lock: an invalidation bumps the stamp before it evicts under
    // that lock, so it either stops this put or removes what it put. A put-then-recheck would let
    // another reader see the stale value in between.
    cache.asMap().compute(key, (k, old) -> stamps.get(stripe) == stamp && healthy ? loaded : old);
    afterPut.run();
    return loaded;
  }

  /** This replica changed the pointer at {@code key} (or tried to): forget it. */
  void invalidate(Key key) {
    stamps.incrementAndGet(stripe(key));
    cache.invalidate(key);
  }

  /**
   * The change feed says the pointer at {@code key} changed to {@code version}. An entry holding
   * exactly that version is the changed state itself (versions are unique: one sequence) and stays;
   * anything else is evicted.
   */
  public void changed(Key key, long version) {
    received.increment();
    stamps.incrementAndGet(stripe(key));
    cache
        .asMap()
        .computeIfPresent(
            key, (k, old) -> old.isPresent() && old.get().version() == version ? old : null);
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
      stamps.incrementAndGet(i);
    }
    cache.invalidateAll();
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
        "invalidations.received",
        received,
        "Pointer changes received from the change feed (other replicas' and our own commits)");
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
