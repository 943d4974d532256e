package dev.sluice.auth;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.github.benmanes.caffeine.cache.Ticker;
import dev.sluice.store.PrincipalRecord;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

/**
 * The verified-secret cache with the real PBKDF2 behind a counter: what is hashed again, what is
 * never cached, and what makes a cached secret stop counting.
 */
class VerifiedSecretsTest {
  private static final String CLIENT = "0123456789abcdef";
  private static final String SECRET = "the-right-secret";

  private final AtomicInteger slowCalls = new AtomicInteger();
  private final AtomicLong nanos = new AtomicLong();
  private final Ticker ticker = nanos::get;
  private final SimpleMeterRegistry metrics = new SimpleMeterRegistry();

  private VerifiedSecrets cache(Duration ttl, long maxEntries) {
    return new VerifiedSecrets(
        ttl,
        maxEntries,
        (secret, stored) -> {
          slowCalls.incrementAndGet();
          return SecretHasher.verifyOrDummy(secret, stored);
        },
        ticker,
        metrics);
  }

  private double checks(String check) {
    return metrics.get("sluice.auth.secret.checks").tag("check", check).counter().count();
  }

  private static PrincipalRecord principal(String name, String clientId, String hash, long v) {
    return new PrincipalRecord(name, clientId, hash, Map.of(), 0, v, "p-" + name);
  }

  @Test
  void theSecondVerificationOfTheSameSecretDoesNotHash() {
    VerifiedSecrets cache = cache(Duration.ofSeconds(60), 100);
    PrincipalRecord p = principal("alice", CLIENT, SecretHasher.hash(SECRET), 1);
    assertThat(cache.verify(CLIENT, SECRET, p)).isTrue();
    assertThat(slowCalls).hasValue(1);
    for (int i = 0; i < 5; i++) {
      assertThat(cache.verify(CLIENT, SECRET, p)).isTrue();
    }
    assertThat(slowCalls).as("five hits, no PBKDF2").hasValue(1);
    assertThat(checks("cached")).as("sluice.auth.secret.checks{check=cached}").isEqualTo(5);
    assertThat(checks("pbkdf2")).as("sluice.auth.secret.checks{check=pbkdf2}").isEqualTo(1);
  }

  @Test
  void wrongSecretsAndUnknownIdsAlwaysPayThePbkdf2AndAreNeverCached() {
    VerifiedSecrets cache = cache(Duration.ofSeconds(60), 100);
    PrincipalRecord p = principal("alice", CLIENT, SecretHasher.hash(SECRET), 1);
    assertThat(cache.verify(CLIENT, SECRET, p)).isTrue();
    for (int i = 0; i < 3; i++) {
      assertThat(cache.verify(CLIENT, "wrong", p)).as("wrong secret after a success").isFalse();
      assertThat(cache.verify("unknown-client", SECRET, null)).as("unknown id").isFalse();
      assertThat(cache.verify("unknown-client", "wrong", null)).isFalse();
    }
    assertThat(slowCalls).as("1 success + 9 failures, each hashed").hasValue(10);
    assertThat(checks("pbkdf2")).as("every slow check is counted").isEqualTo(10);
    assertThat(checks("cached")).isZero();
    assertThat(cache.size()).as("only the success is kept").isEqualTo(1);
    // The right secret under another client id is another key: no hit across ids.
    PrincipalRecord other = principal("bob", "fedcba9876543210", SecretHasher.hash("bobs"), 1);
    assertThat(cache.verify(other.clientId(), SECRET, other)).isFalse();
    assertThat(slowCalls).hasValue(11);
  }

  @Test
  void aRotatedResetOrDeletedPrincipalRefusesTheCachedSecretAtOnce() {
    VerifiedSecrets cache = cache(Duration.ofSeconds(60), 100);
    String oldHash = SecretHasher.hash(SECRET);
    PrincipalRecord before = principal("alice", CLIENT, oldHash, 1);
    assertThat(cache.verify(CLIENT, SECRET, before)).isTrue();
    assertThat(cache.verify(CLIENT, SECRET, before)).isTrue();
    int warm = slowCalls.get();

    // Rotation (and the reset the management API calls rotate): new hash, version + 1.
    PrincipalRecord rotated = principal("alice", CLIENT, SecretHasher.hash("new-secret"), 2);
    assertThat(cache.verify(CLIENT, SECRET, rotated)).as("old secret after rotation").isFalse();
    assertThat(slowCalls).as("the stale entry is a miss: PBKDF2 ran").hasValue(warm + 1);
    assertThat(cache.verify(CLIENT, "new-secret", rotated)).isTrue();

    // Either change alone is enough: same hash with a new version, or a new hash, same version.
    assertThat(cache.verify(CLIENT, SECRET, principal("alice", CLIENT, oldHash, 3))).isTrue();
    int afterVersion = slowCalls.get();
    assertThat(afterVersion).as("a new version was a miss").isEqualTo(warm + 3);
    // Deleted then recreated under the same name and client id (only possible by hand): new hash.
    PrincipalRecord recreated = principal("alice", CLIENT, SecretHasher.hash("other"), 3);
    assertThat(cache.verify(CLIENT, SECRET, recreated)).isFalse();
    // Deleted: the store has no record, and that is the dummy PBKDF2 and a refusal.
    assertThat(cache.verify(CLIENT, SECRET, null)).as("deleted principal").isFalse();
    assertThat(slowCalls).hasValue(afterVersion + 2);
  }

  @Test
  void invalidateAllForgetsEverySecret() {
    VerifiedSecrets cache = cache(Duration.ofSeconds(60), 100);
    PrincipalRecord p = principal("alice", CLIENT, SecretHasher.hash(SECRET), 1);
    cache.verify(CLIENT, SECRET, p);
    cache.invalidateAll();
    assertThat(cache.size()).isZero();
    assertThat(cache.verify(CLIENT, SECRET, p)).isTrue();
    assertThat(slowCalls).hasValue(2);
  }

  @Test
  void entriesExpireAfterTheTtl() {
    VerifiedSecrets cache = cache(Duration.ofSeconds(60), 100);
    PrincipalRecord p = principal("alice", CLIENT, SecretHasher.hash(SECRET), 1);
    cache.verify(CLIENT, SECRET, p);
    nanos.addAndGet(Duration.ofSeconds(59).toNanos());
    cache.verify(CLIENT, SECRET, p);
    assertThat(slowCalls).as("hit at 59 s").hasValue(1);
    nanos.addAndGet(Duration.ofSeconds(2).toNanos());
    cache.verify(CLIENT, SECRET, p);
    assertThat(slowCalls).as("miss at 61 s").hasValue(2);
  }

  @Test
  void theCacheIsBounded() {
    VerifiedSecrets cache = cache(Duration.ofSeconds(60), 3);
    String hash = SecretHasher.hash(SECRET);
    List<PrincipalRecord> many = new ArrayList<>();
    for (int i = 0; i < 8; i++) {
      PrincipalRecord p = principal("p" + i, "client" + i, hash, 1);
      many.add(p);
      assertThat(cache.verify(p.clientId(), SECRET, p)).isTrue();
    }
    assertThat(cache.size()).isLessThanOrEqualTo(3);
  }

  @Test
  void aZeroTtlHashesEveryRequest() {
    VerifiedSecrets cache = cache(Duration.ZERO, 100);
    PrincipalRecord p = principal("alice", CLIENT, SecretHasher.hash(SECRET), 1);
    assertThat(cache.verify(CLIENT, SECRET, p)).isTrue();
    assertThat(cache.verify(CLIENT, SECRET, p)).isTrue();
    assertThat(slowCalls).hasValue(2);
  }

  @Test
  void theKeyIsAKeyedHashNeverTheSecret() {
    VerifiedSecrets one = cache(Duration.ofSeconds(60), 100);
    VerifiedSecrets two = cache(Duration.ofSeconds(60), 100);
    String key = one.key(CLIENT, SECRET);
    assertThat(key).doesNotContain(SECRET).isEqualTo(one.key(CLIENT, SECRET));
    assertThat(two.key(CLIENT, SECRET)).as("a random key per instance").isNotEqualTo(key);
    assertThat(one.key(CLIENT + "x", "y")).isNotEqualTo(one.key(CLIENT, "xy"));
  }

  @Test
  void aTtlBeyondTheBoundIsRefused() {
    assertThatThrownBy(() -> new VerifiedSecrets(Duration.ofSeconds(301)))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("PT5M1S");
  }
}
