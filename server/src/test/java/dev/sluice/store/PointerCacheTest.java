package dev.sluice.store;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Supplier;
import org.junit.jupiter.api.Test;

/** The pointer cache's coherence rules, with the interleavings forced by latches and hooks. */
class PointerCacheTest {
  private static final PointerCache.Key KEY = new PointerCache.Key("cat", "ns", "t");

  private static Optional<ContentRecord> at(String location, long version) {
    return Optional.of(
        new ContentRecord(
            "cat", new NamespacePath(List.of("ns")), "t", ContentKind.TABLE, location, version));
  }

  /** A database that answers {@code value} and counts how often it was asked. */
  private static final class Db implements Supplier<Optional<ContentRecord>> {
    volatile Optional<ContentRecord> value;
    final AtomicInteger reads = new AtomicInteger();

    Db(Optional<ContentRecord> value) {
      this.value = value;
    }

    @Override
    public Optional<ContentRecord> get() {
      reads.incrementAndGet();
      return value;
    }
  }

  @Test
  void servesFromMemoryUntilInvalidated() {
    PointerCache cache = new PointerCache(true, 100, false);
    Db db = new Db(at("m1", 1));
    assertThat(cache.get(KEY, db)).isEqualTo(at("m1", 1));
    assertThat(cache.get(KEY, db)).isEqualTo(at("m1", 1));
    assertThat(db.reads).hasValue(1);
    db.value = at("m2", 2);
    cache.settled(List.of(KEY), null, true); // a change whose outcome is unknown
    assertThat(cache.get(KEY, db)).isEqualTo(at("m2", 2));
    assertThat(db.reads).hasValue(2);
    assertThat(cache.hits()).isEqualTo(1);
    assertThat(cache.misses()).isEqualTo(2);
  }

  @Test
  void aReadThatBeganBeforeAnInvalidationIsNeverCached() throws Exception {
    PointerCache cache = new PointerCache(true, 100, false);
    CountDownLatch reading = new CountDownLatch(1);
    CountDownLatch invalidated = new CountDownLatch(1);
    // The database answers the old pointer, then the change lands and is notified before the
    // reader puts what it read.
    Supplier<Optional<ContentRecord>> slowOld =
        () -> {
          reading.countDown();
          try {
            assertThat(invalidated.await(5, TimeUnit.SECONDS)).isTrue();
          } catch (InterruptedException e) {
            throw new IllegalStateException(e);
          }
          return at("old", 1);
        };
    CompletableFuture<Optional<ContentRecord>> reader =
        CompletableFuture.supplyAsync(() -> cache.get(KEY, slowOld));
    assertThat(reading.await(5, TimeUnit.SECONDS)).isTrue();
    cache.changed(KEY, 2); // evicts nothing (nothing cached yet), but bumps the stamp
    invalidated.countDown();
    assertThat(reader.get(5, TimeUnit.SECONDS)).isEqualTo(at("old", 1));

    Db db = new Db(at("new", 2));
    assertThat(cache.get(KEY, db)).as("the old value was not kept").isEqualTo(at("new", 2));
    assertThat(db.reads).hasValue(1);
  }

  @Test
  void anInvalidationBetweenPutAndRecheckIsNotLost() {
    PointerCache cache = new PointerCache(true, 100, false);
    cache.afterPut = () -> cache.changed(KEY, 2);
    assertThat(cache.get(KEY, new Db(at("old", 1)))).isEqualTo(at("old", 1));
    cache.afterPut = () -> {};
    Db db = new Db(at("new", 2));
    assertThat(cache.get(KEY, db)).isEqualTo(at("new", 2));
    assertThat(db.reads).hasValue(1);
  }

  @Test
  void aValueReadBeforeAnInvalidationIsNeverVisibleToOtherReaders() {
    PointerCache cache = new PointerCache(true, 100, false);
    // The notification of version 2 arrives while this read of version 1 is in the database.
    Supplier<Optional<ContentRecord>> readsOldThenNotified =
        () -> {
          cache.changed(KEY, 2);
          return at("old", 1);
        };
    AtomicReference<Optional<ContentRecord>> concurrent = new AtomicReference<>();
    cache.afterPut = () -> concurrent.set(cache.get(KEY, new Db(at("new", 2))));
    cache.get(KEY, readsOldThenNotified);
    assertThat(concurrent.get()).as("a reader right after the put").isEqualTo(at("new", 2));
  }

  @Test
  void aNotificationOfTheCachedVersionKeepsItAndAnyOtherEvicts() {
    PointerCache cache = new PointerCache(true, 100, false);
    Db db = new Db(at("m5", 5));
    cache.get(KEY, db);
    cache.changed(KEY, 5); // the echo of the very state cached
    cache.get(KEY, db);
    assertThat(db.reads).hasValue(1);
    cache.changed(KEY, 6);
    cache.get(KEY, db);
    assertThat(db.reads).hasValue(2);
    // An absent pointer is evicted by any change (a create).
    PointerCache.Key missing = new PointerCache.Key("cat", "ns", "gone");
    Db none = new Db(Optional.empty());
    cache.get(missing, none);
    cache.get(missing, none);
    assertThat(none.reads).hasValue(1);
    cache.changed(missing, 7);
    cache.get(missing, none);
    assertThat(none.reads).hasValue(2);
    cache.changedAll();
    cache.get(KEY, db);
    assertThat(db.reads).hasValue(3);
  }

  @Test
  void withAFeedNothingIsServedUntilSubscribedNorWhileItIsDown() {
    PointerCache cache = new PointerCache(true, 100, true);
    Db db = new Db(at("m1", 1));
    cache.get(KEY, db);
    cache.get(KEY, db);
    assertThat(db.reads).as("not subscribed yet: read through").hasValue(2);
    assertThat(cache.serving()).isFalse();

    cache.feedRestored();
    cache.get(KEY, db);
    cache.barrierEchoed(cache.barriersWanted()); // a first read is settled by a barrier
    cache.get(KEY, db);
    assertThat(db.reads).hasValue(3);

    cache.feedLost();
    assertThat(cache.serving()).isFalse();
    db.value = at("m2", 2); // a change whose notification this replica missed
    assertThat(cache.get(KEY, db)).isEqualTo(at("m2", 2));
    assertThat(cache.get(KEY, db)).isEqualTo(at("m2", 2));
    assertThat(db.reads).hasValue(5);

    db.value = at("m3", 3); // missed too, while down
    cache.feedRestored(); // flushes: the m1 entry from before the loss is gone
    assertThat(cache.get(KEY, db)).isEqualTo(at("m3", 3));
    cache.barrierEchoed(cache.barriersWanted());
    assertThat(cache.get(KEY, db)).isEqualTo(at("m3", 3));
    assertThat(db.reads).hasValue(6);
  }

  private static final PointerCache.Key A = new PointerCache.Key("cat", "ns", "a");
  private static final PointerCache.Key B = new PointerCache.Key("cat", "ns", "b");

  /** A feed-following cache holding A and B at version 1, settled. */
  private static PointerCache settledWith(Db a, Db b) {
    PointerCache cache = new PointerCache(true, 100, true);
    cache.feedRestored();
    cache.get(A, a);
    cache.get(B, b);
    cache.barrierEchoed(cache.barriersWanted());
    assertThat(cache.get(A, a)).isEqualTo(a.value);
    assertThat(cache.get(B, b)).isEqualTo(b.value);
    assertThat(a.reads).hasValue(1);
    assertThat(b.reads).hasValue(1);
    return cache;
  }

  @Test
  void afterALocalChangeNothingOlderIsServedUntilItsBarrierReturns() {
    // The CI failure of ReplicaDurabilityTest: another replica commits A and B in one
    // transaction; before its notification arrives, this replica commits A (based on the new A)
    // and a reader loads A (its own commit) then B (which was cached from before).
    Db a = new Db(at("a1", 1));
    Db b = new Db(at("b1", 1));
    PointerCache cache = settledWith(a, b);
    a.value = at("a2", 2);
    b.value = at("b2", 2); // the other replica's transaction, not notified yet
    a.value = at("a3", 3);
    cache.settled(List.of(A), null, true); // this replica's commit, outcome unknown
    assertThat(cache.get(A, a)).isEqualTo(at("a3", 3));
    assertThat(cache.get(B, b)).as("B as new as the A just answered").isEqualTo(at("b2", 2));
    assertThat(cache.get(B, b)).isEqualTo(at("b2", 2));
    assertThat(b.reads).as("read through until the barrier is back").hasValue(3);

    long barrier = cache.barriersWanted();
    assertThat(barrier).isPositive();
    cache.changed(List.of(new PointerChange(A, 2), new PointerChange(B, 2)));
    cache.changed(A, 3);
    cache.barrierEchoed(barrier);
    assertThat(cache.get(B, b)).isEqualTo(at("b2", 2));
    assertThat(cache.get(A, a)).isEqualTo(at("a3", 3));
    assertThat(b.reads).as("served from memory again").hasValue(3);
  }

  @Test
  void aCommittedChangeWaitsForItsOwnNotificationNotForABarrier() {
    Db a = new Db(at("a1", 1));
    Db b = new Db(at("b1", 1));
    PointerCache cache = settledWith(a, b);
    long barriers = cache.barriersWanted();
    a.value = at("a2", 2);
    b.value = at("b2", 2); // another replica's change, not notified yet
    a.value = at("a3", 3);
    cache.settled(List.of(A), List.of(new PointerChange(A, 3)), false); // this replica's commit
    assertThat(cache.barriersWanted())
        .as("its own notification is the barrier")
        .isEqualTo(barriers);
    assertThat(cache.get(B, b)).isEqualTo(at("b2", 2));
    // That read of B showed a version the feed had not named: it asked for a barrier of its own.
    cache.changed(List.of(new PointerChange(A, 2), new PointerChange(B, 2)));
    cache.changed(A, 3);
    cache.barrierEchoed(cache.barriersWanted());
    assertThat(cache.get(B, b)).isEqualTo(at("b2", 2));
    assertThat(b.reads).as("served again once its notification came back").hasValue(2);
  }

  @Test
  void aChangeAwaitedTooLongGivesWayToABarrier() throws Exception {
    Db a = new Db(at("a1", 1));
    Db b = new Db(at("b1", 1));
    PointerCache cache = settledWith(a, b);
    cache.pendingMaxNanos = 1_000_000; // 1 ms
    long barriers = cache.barriersWanted();
    // A notification that never comes (the feed's announcement of the key was forgotten, say).
    cache.settled(List.of(A), List.of(new PointerChange(A, 7)), false);
    Thread.sleep(5);
    cache.get(B, b);
    assertThat(b.reads).as("still behind: now waiting for the barrier").hasValue(2);
    // One for the expired wait, one for that read of B (nothing of B named since subscribing).
    assertThat(cache.barriersWanted()).isEqualTo(barriers + 2);
    cache.barrierEchoed(cache.barriersWanted());
    cache.get(B, b);
    assertThat(b.reads).hasValue(2);
  }

  @Test
  void anOwnNotificationThatCameBeforeTheWriteSettledHoldsNothing() {
    Db a = new Db(at("a1", 1));
    Db b = new Db(at("b1", 1));
    PointerCache cache = settledWith(a, b);
    cache.changed(A, 2); // the listener was quicker than the writing thread
    cache.settled(List.of(A), List.of(new PointerChange(A, 2)), false);
    cache.get(B, b);
    assertThat(b.reads).hasValue(1);
  }

  @Test
  void aWriteRefusedBeforeItsCommitWaitsForNothingAndAnUnknownOutcomeForABarrier() {
    Db a = new Db(at("a1", 1));
    Db b = new Db(at("b1", 1));
    PointerCache cache = settledWith(a, b);
    long barriers = cache.barriersWanted();
    cache.settled(List.of(A), null, false);
    assertThat(cache.barriersWanted()).isEqualTo(barriers);
    cache.get(B, b);
    assertThat(b.reads).hasValue(1);
    cache.settled(List.of(A), null, true);
    assertThat(cache.barriersWanted()).isEqualTo(barriers + 1);
    cache.get(B, b);
    assertThat(b.reads).as("read through until the barrier is back").hasValue(2);
  }

  @Test
  void aReadShowingAVersionNewerThanTheFeedNamedStopsServingUntilTheFeedNamesIt() {
    Db a = new Db(at("a1", 1));
    Db b = new Db(at("b1", 1));
    PointerCache cache = settledWith(a, b);
    // A notification evicted A; by the time A is read again a later transaction (A and B,
    // not notified yet) is in the database.
    a.value = at("a2", 2);
    cache.changed(A, 2);
    a.value = at("a3", 3);
    b.value = at("b3", 3);
    long barriers = cache.barriersWanted();
    assertThat(cache.get(A, a)).isEqualTo(at("a3", 3));
    assertThat(cache.barriersWanted())
        .as("a version after one the feed named is on its way: awaited, no barrier")
        .isEqualTo(barriers);
    assertThat(cache.get(B, b)).isEqualTo(at("b3", 3));
    assertThat(b.reads).hasValue(2);
    cache.changed(List.of(new PointerChange(A, 3), new PointerChange(B, 3)));
    // B's read (no notification of B since subscribing to compare with) asked for a barrier.
    cache.barrierEchoed(cache.barriersWanted());
    assertThat(cache.get(B, b)).isEqualTo(at("b3", 3));
    assertThat(b.reads).as("served again").hasValue(2);

    // Reading exactly what the feed named is not ahead of it: nothing awaited, served at once.
    Db c = new Db(at("c4", 4));
    PointerCache.Key key = new PointerCache.Key("cat", "ns", "c");
    cache.changed(key, 4);
    long wanted = cache.barriersWanted();
    cache.get(key, c);
    assertThat(cache.barriersWanted()).isEqualTo(wanted);
    cache.get(key, c);
    assertThat(c.reads).hasValue(1);
  }

  @Test
  void whileOneNotificationIsAppliedNothingIsServed() {
    Db a = new Db(at("a1", 1));
    Db b = new Db(at("b1", 1));
    PointerCache cache = settledWith(a, b);
    a.value = at("a2", 2);
    b.value = at("b2", 2);
    List<Optional<ContentRecord>> seen = new java.util.ArrayList<>();
    // Between A's eviction and B's, a reader loads A then B (forced here by a hook in the feed's
    // application: the reader runs inside it, after A's change).
    PointerChange first = new PointerChange(A, 2);
    PointerChange second = new PointerChange(B, 2);
    List<PointerChange> changes =
        new java.util.AbstractList<>() {
          @Override
          public PointerChange get(int i) {
            if (i == 1) {
              seen.add(cache.get(A, a));
              seen.add(cache.get(B, b));
            }
            return i == 0 ? first : second;
          }

          @Override
          public int size() {
            return 2;
          }
        };
    cache.changed(changes);
    assertThat(seen).containsExactly(at("a2", 2), at("b2", 2));
  }

  @Test
  void aReadInFlightWhenTheFeedIsLostAndRestoredIsNotCached() {
    PointerCache cache = new PointerCache(true, 100, true);
    cache.feedRestored();
    cache.afterPut =
        () -> {
          cache.feedLost();
          cache.feedRestored();
        };
    cache.get(KEY, new Db(at("old", 1)));
    cache.afterPut = () -> {};
    Db db = new Db(at("new", 2));
    assertThat(cache.get(KEY, db)).isEqualTo(at("new", 2));
    assertThat(db.reads).hasValue(1);
  }

  @Test
  void aDisabledCacheAlwaysReadsTheDatabase() {
    PointerCache cache = PointerCache.disabled();
    Db db = new Db(at("m1", 1));
    cache.get(KEY, db);
    cache.get(KEY, db);
    assertThat(db.reads).hasValue(2);
    assertThat(cache.serving()).isFalse();
  }
}
