package dev.sluice.client.comet;

import static java.util.Objects.requireNonNull;

import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutionException;
import java.util.function.LongSupplier;

/**
 * A cache whose values stay fresh until a time the loader's result names, with at most one load in
 * flight per key: callers that miss while a load runs wait for it and share its result or failure.
 * Failures are not cached. {@link #invalidate} drops a value and detaches a running load, so the
 * next caller loads afresh and the detached result is not stored.
 */
final class SingleFlightCache<K, V> {

  /** Loads the value for a key. */
  interface Loader<K, V> {
    Fresh<V> load(K key) throws Exception;
  }

  /** A value and the epoch millisecond until which it may be served. */
  record Fresh<V>(V value, long freshUntilMillis) {}

  private final LongSupplier clock;
  private final ConcurrentHashMap<K, Fresh<V>> values = new ConcurrentHashMap<>();
  private final ConcurrentHashMap<K, CompletableFuture<Fresh<V>>> inFlight =
      new ConcurrentHashMap<>();

  SingleFlightCache(LongSupplier clock) {
    this.clock = requireNonNull(clock, "clock");
  }

  V get(K key, Loader<K, V> loader) throws Exception {
    requireNonNull(key, "key");
    while (true) {
      Fresh<V> cached = values.get(key);
      if (cached != null && clock.getAsLong() < cached.freshUntilMillis()) {
        return cached.value();
      }
      CompletableFuture<Fresh<V>> mine = new CompletableFuture<>();
      CompletableFuture<Fresh<V>> running = inFlight.putIfAbsent(key, mine);
      if (running != null) {
        return await(running).value();
      }
      // Another thread may have stored a fresh value between our read and our claim.
      cached = values.get(key);
      if (cached != null && clock.getAsLong() < cached.freshUntilMillis()) {
        inFlight.remove(key, mine);
        mine.complete(cached);
        return cached.value();
      }
      try {
        Fresh<V> loaded = requireNonNull(loader.load(key), "loader result");
        if (inFlight.remove(key, mine)) {
          values.put(key, loaded);
        }
        mine.complete(loaded);
        return loaded.value();
      } catch (Throwable t) {
        inFlight.remove(key, mine);
        mine.completeExceptionally(t);
        throw t;
      }
    }
  }

  void invalidate(K key) {
    values.remove(key);
    inFlight.remove(key);
  }

  void clear() {
    values.clear();
    inFlight.clear();
  }

  private static <T> T await(CompletableFuture<T> future) throws Exception {
    try {
      return future.get();
    } catch (ExecutionException e) {
      Throwable cause = e.getCause();
      if (cause instanceof Exception ex) {
        throw ex;
      }
      if (cause instanceof Error err) {
        throw err;
      }
      throw e;
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw e;
    }
  }
}
