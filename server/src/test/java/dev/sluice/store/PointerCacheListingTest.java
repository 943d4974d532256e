package dev.sluice.store;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Supplier;
import org.junit.jupiter.api.Test;

/** Pages of a namespace's names in the pointer cache: voided by any change in the namespace. */
class PointerCacheListingTest {
  private static final PointerCache.ListingKey PAGE =
      new PointerCache.ListingKey("cat", "ns", ContentKind.TABLE, null, 20);

  /** A database answering {@code names}, counting reads. */
  private static final class Db implements Supplier<Page<String>> {
    volatile List<String> names;
    final AtomicInteger reads = new AtomicInteger();

    Db(List<String> names) {
      this.names = names;
    }

    @Override
    public Page<String> get() {
      reads.incrementAndGet();
      return new Page<>(names, null);
    }
  }

  @Test
  void aPageIsServedUntilAnythingInItsNamespaceChanges() {
    PointerCache cache = new PointerCache(true, 100, false);
    Db db = new Db(List.of("a", "b"));
    assertThat(cache.listing(PAGE, db).items()).containsExactly("a", "b");
    assertThat(cache.listing(PAGE, db).items()).containsExactly("a", "b");
    assertThat(db.reads).hasValue(1);

    // A change in another namespace (or another catalog's same namespace) leaves it.
    cache.settled(List.of(new PointerCache.Key("cat", "other", "x")), null, false);
    cache.changed(new PointerCache.Key("cat2", "other", "y"), 7);
    assertThat(cache.listing(PAGE, db).items()).containsExactly("a", "b");
    assertThat(db.reads).hasValue(1);

    // This replica's own create, then one the feed brings from another replica.
    db.names = List.of("a", "b", "c");
    cache.settled(List.of(new PointerCache.Key("cat", "ns", "c")), null, false);
    assertThat(cache.listing(PAGE, db).items()).containsExactly("a", "b", "c");
    db.names = List.of("a", "c");
    cache.changed(new PointerCache.Key("cat", "ns", "b"), 9);
    assertThat(cache.listing(PAGE, db).items()).containsExactly("a", "c");
    assertThat(db.reads).hasValue(3);
  }

  @Test
  void aPageReadBeforeAChangeIsNeverServedAfterIt() throws Exception {
    PointerCache cache = new PointerCache(true, 100, false);
    CountDownLatch reading = new CountDownLatch(1);
    CountDownLatch changed = new CountDownLatch(1);
    Supplier<Page<String>> slowOld =
        () -> {
          reading.countDown();
          try {
            assertThat(changed.await(5, TimeUnit.SECONDS)).isTrue();
          } catch (InterruptedException e) {
            throw new IllegalStateException(e);
          }
          return new Page<>(List.of("old"), null);
        };
    CompletableFuture<Page<String>> reader =
        CompletableFuture.supplyAsync(() -> cache.listing(PAGE, slowOld));
    assertThat(reading.await(5, TimeUnit.SECONDS)).isTrue();
    cache.changed(new PointerCache.Key("cat", "ns", "new"), 2);
    changed.countDown();
    assertThat(reader.get(5, TimeUnit.SECONDS).items()).containsExactly("old");

    Db db = new Db(List.of("new", "old"));
    assertThat(cache.listing(PAGE, db).items()).containsExactly("new", "old");
    assertThat(db.reads).hasValue(1);
  }

  @Test
  void nothingIsServedWhileTheFeedIsDownAndAllIsVoidedWhenItIsBack() {
    PointerCache cache = new PointerCache(true, 100, true);
    Db db = new Db(List.of("a"));
    cache.listing(PAGE, db);
    cache.listing(PAGE, db);
    assertThat(db.reads).as("a feed not yet subscribed: never served").hasValue(2);
    cache.feedRestored();
    cache.listing(PAGE, db);
    cache.listing(PAGE, db);
    assertThat(db.reads).hasValue(3);
    cache.feedLost();
    db.names = List.of("a", "b");
    assertThat(cache.listing(PAGE, db).items()).containsExactly("a", "b");
    cache.feedRestored(); // a notification may have been missed meanwhile
    db.names = List.of("a", "b", "c");
    assertThat(cache.listing(PAGE, db).items()).containsExactly("a", "b", "c");
    assertThat(db.reads).hasValue(5);
  }

  @Test
  void aDisabledCacheServesNoPage() {
    PointerCache cache = PointerCache.disabled();
    Db db = new Db(List.of("a"));
    cache.listing(PAGE, db);
    cache.listing(PAGE, db);
    assertThat(db.reads).hasValue(2);
  }
}
