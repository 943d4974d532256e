package dev.sluice.client.comet;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

class SingleFlightCacheTest {
  private final AtomicLong now = new AtomicLong(1_000);
  private final SingleFlightCache<String, String> cache = new SingleFlightCache<>(now::get);
  private final AtomicInteger loads = new AtomicInteger();

  private SingleFlightCache.Fresh<String> load(String key) {
    return new SingleFlightCache.Fresh<>(key + "#" + loads.incrementAndGet(), now.get() + 100);
  }

  @Test
  void servesAValueUntilItsFreshnessEnds() throws Exception {
    assertThat(cache.get("k", this::load)).isEqualTo("k#1");
    now.addAndGet(99);
    assertThat(cache.get("k", this::load)).isEqualTo("k#1");
    now.addAndGet(1);
    assertThat(cache.get("k", this::load)).isEqualTo("k#2");
    assertThat(cache.get("other", this::load)).isEqualTo("other#3");
  }

  @Test
  void concurrentMissesShareOneLoad() throws Exception {
    CountDownLatch release = new CountDownLatch(1);
    ExecutorService pool = Executors.newFixedThreadPool(32);
    try {
      List<Future<String>> results = new ArrayList<>();
      for (int i = 0; i < 32; i++) {
        results.add(
            pool.submit(
                () ->
                    cache.get(
                        "k",
                        k -> {
                          release.await(5, TimeUnit.SECONDS);
                          return load(k);
                        })));
      }
      Thread.sleep(200); // let every thread arrive while the first load waits
      release.countDown();
      for (Future<String> f : results) {
        assertThat(f.get(5, TimeUnit.SECONDS)).isEqualTo("k#1");
      }
    } finally {
      pool.shutdownNow();
    }
    assertThat(loads.get()).isEqualTo(1);
  }

  @Test
  void aFailureIsSharedByItsWaitersAndNotCached() throws Exception {
    CountDownLatch release = new CountDownLatch(1);
    ExecutorService pool = Executors.newFixedThreadPool(8);
    AtomicInteger attempts = new AtomicInteger();
    try {
      List<Future<String>> results = new ArrayList<>();
      for (int i = 0; i < 8; i++) {
        results.add(
            pool.submit(
                () ->
                    cache.get(
                        "k",
                        k -> {
                          attempts.incrementAndGet();
                          release.await(5, TimeUnit.SECONDS);
                          throw new IOException("sluice down");
                        })));
      }
      Thread.sleep(200);
      release.countDown();
      for (Future<String> f : results) {
        assertThatThrownBy(() -> f.get(5, TimeUnit.SECONDS)).hasRootCauseMessage("sluice down");
      }
    } finally {
      pool.shutdownNow();
    }
    assertThat(attempts.get()).isEqualTo(1);
    assertThat(cache.get("k", this::load)).isEqualTo("k#1");
  }

  @Test
  void invalidateDropsTheValueAndDetachesARunningLoad() throws Exception {
    assertThat(cache.get("k", this::load)).isEqualTo("k#1");
    cache.invalidate("k");
    assertThat(cache.get("k", this::load)).isEqualTo("k#2");

    // A load that is invalidated while it runs is returned to its caller but not stored.
    String detached =
        cache.get(
            "k2",
            k -> {
              cache.invalidate("k2");
              return load(k);
            });
    assertThat(detached).isEqualTo("k2#3");
    assertThat(cache.get("k2", this::load)).isEqualTo("k2#4");
  }
}
