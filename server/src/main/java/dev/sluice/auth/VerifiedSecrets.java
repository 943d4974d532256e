package dev.sluice.auth;

import static java.util.Objects.requireNonNull;

import com.github.benmanes.caffeine.cache.Cache;
import com.github.benmanes.caffeine.cache.Caffeine;
import com.github.benmanes.caffeine.cache.Ticker;
import dev.sluice.store.PrincipalRecord;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.security.SecureRandom;
import java.time.Duration;
import java.util.Base64;
import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;

/**
 * Client secrets this replica verified recently, so a client that asks for a token per call (Trino)
 * pays the PBKDF2 once, not per request.
 *
 * <p>The key is HMAC-SHA256 of (client id, presented secret) under a random key made per process:
 * never the secret, never an unkeyed hash. The value is the stored credential it was verified
 * against (principal name, stored PBKDF2 hash, credential version). A hit counts only while the
 * principal's stored record, read from the store on every request, still has that hash and version:
 * a rotation or deletion on any replica makes the next request miss, and the old secret then fails
 * the PBKDF2. Only successes are stored; a wrong secret or an unknown client id always costs the
 * full PBKDF2 (the dummy hash for an unknown id), so the equal-work rule holds for everyone who
 * does not already know a valid secret. Entries also expire after {@code ttl} and are bounded in
 * number.
 *
 * <p>Counted in {@code sluice.auth.secret.checks}, tagged {@code check=cached} or {@code
 * check=pbkdf2}, so an operator can see that a chatty engine is served from the cache.
 */
public final class VerifiedSecrets {
  public static final Duration DEFAULT_TTL = Duration.ofSeconds(60);
  public static final Duration MAX_TTL = Duration.ofSeconds(300);
  static final long MAX_ENTRIES = 10_000;

  /** The slow check: {@link SecretHasher#verifyOrDummy}; tests substitute one that counts. */
  @FunctionalInterface
  interface SlowCheck {
    /** True when {@code secret} matches {@code stored}; {@code stored} is null for no client. */
    boolean verify(String secret, String stored);
  }

  /** What a secret was verified against; a hit needs the stored record to be unchanged. */
  private record Verified(String name, String secretHash, long credentialVersion) {
    boolean stillMatches(PrincipalRecord p) {
      return credentialVersion == p.credentialVersion()
          && name.equals(p.name())
          && secretHash.equals(p.secretHash());
    }
  }

  private final Cache<String, Verified> verified;
  private final boolean enabled;
  private final SlowCheck slow;
  private final ThreadLocal<Mac> macs;
  private final Counter cachedChecks;
  private final Counter slowChecks;

  /**
   * {@code ttl} zero turns the cache off (every request pays the PBKDF2); checks are counted in
   * {@code metrics}.
   */
  public VerifiedSecrets(Duration ttl, MeterRegistry metrics) {
    this(ttl, MAX_ENTRIES, SecretHasher::verifyOrDummy, Ticker.systemTicker(), metrics);
  }

  /** Without metrics (benchmarks). */
  public VerifiedSecrets(Duration ttl) {
    this(ttl, new SimpleMeterRegistry());
  }

  VerifiedSecrets(
      Duration ttl, long maxEntries, SlowCheck slow, Ticker ticker, MeterRegistry metrics) {
    requireNonNull(ttl, "ttl");
    requireNonNull(metrics, "metrics");
    if (ttl.isNegative() || ttl.compareTo(MAX_TTL) > 0) {
      throw new IllegalArgumentException(
          "verified-secret TTL must be between 0 and " + MAX_TTL.toSeconds() + " s, got " + ttl);
    }
    if (maxEntries < 1) {
      throw new IllegalArgumentException("maxEntries must be at least 1, got " + maxEntries);
    }
    this.slow = requireNonNull(slow, "slow");
    this.enabled = !ttl.isZero();
    this.verified =
        Caffeine.newBuilder()
            .expireAfterWrite(ttl)
            .maximumSize(maxEntries)
            .ticker(requireNonNull(ticker, "ticker"))
            .build();
    byte[] key = new byte[32];
    new SecureRandom().nextBytes(key);
    SecretKeySpec spec = new SecretKeySpec(key, "HmacSHA256");
    this.macs = ThreadLocal.withInitial(() -> newMac(spec));
    this.cachedChecks = checks(metrics, "cached", "A client secret accepted from the cache");
    this.slowChecks = checks(metrics, "pbkdf2", "A client secret checked with the slow hash");
  }

  private static Counter checks(MeterRegistry metrics, String check, String description) {
    return Counter.builder("sluice.auth.secret.checks")
        .tag("check", check)
        .description(description)
        .register(metrics);
  }

  /**
   * Whether {@code secret} is the secret of {@code stored}, the principal the store has for {@code
   * clientId} now (null when there is none).
   */
  public boolean verify(String clientId, String secret, PrincipalRecord stored) {
    requireNonNull(clientId, "clientId");
    requireNonNull(secret, "secret");
    // Computed and looked up for unknown ids too, so both paths do the same cheap work before the
    // PBKDF2 they both pay.
    String key = enabled ? key(clientId, secret) : null;
    Verified hit = key == null ? null : verified.getIfPresent(key);
    if (stored == null) {
      slowChecks.increment();
      slow.verify(secret, null);
      return false;
    }
    if (hit != null && hit.stillMatches(stored)) {
      cachedChecks.increment();
      return true;
    }
    slowChecks.increment();
    if (!slow.verify(secret, stored.secretHash())) {
      return false;
    }
    if (key != null) {
      verified.put(
          key, new Verified(stored.name(), stored.secretHash(), stored.credentialVersion()));
    }
    return true;
  }

  /** Forgets every verified secret (wired to access changes made through this replica). */
  public void invalidateAll() {
    verified.invalidateAll();
  }

  long size() {
    verified.cleanUp();
    return verified.estimatedSize();
  }

  /** HMAC-SHA256 of the client id (length-prefixed, so no two pairs share an input) and secret. */
  String key(String clientId, String secret) {
    byte[] id = clientId.getBytes(StandardCharsets.UTF_8);
    Mac mac = macs.get();
    mac.update(ByteBuffer.allocate(4).putInt(id.length).array());
    mac.update(id);
    mac.update(secret.getBytes(StandardCharsets.UTF_8));
    return Base64.getEncoder().encodeToString(mac.doFinal());
  }

  private static Mac newMac(SecretKeySpec key) {
    try {
      Mac mac = Mac.getInstance("HmacSHA256");
      mac.init(key);
      return mac;
    } catch (GeneralSecurityException e) {
      throw new IllegalStateException("HmacSHA256 is unavailable", e);
    }
  }
}
