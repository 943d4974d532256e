package dev.sluice.auth;

import static java.util.Objects.requireNonNull;

import com.github.benmanes.caffeine.cache.Cache;
import com.github.benmanes.caffeine.cache.Caffeine;
import java.net.Inet6Address;
import java.net.InetAddress;
import java.net.UnknownHostException;
import java.time.Duration;
import java.util.Arrays;
import java.util.OptionalLong;
import java.util.function.LongSupplier;

/**
 * Rate limit on failed token requests, per claimed client id and per source address: one token
 * bucket per key, which a failure (unknown client, wrong secret, invalid subject token) drains by
 * one and which refills at a steady rate. Successes cost nothing, so a busy client with the right
 * secret is never slowed down; a guessing loop is, after {@code burst} misses.
 *
 * <p>The check comes before the secret is hashed (the expensive part), so a throttled request costs
 * no PBKDF2. Concurrent failures may overdraw a bucket; the debt (at most one more burst) is paid
 * back before the key is let through again. Memory is bounded: at most {@code maxTrackedKeys}
 * buckets per kind, least recently used evicted first, and a bucket idle long enough to be full
 * again is dropped.
 */
public final class TokenThrottle {
  /**
   * Validated limits ({@code auth.tokenThrottle} in the server config).
   *
   * @param enabled false turns the throttle off (every check passes)
   * @param clientBurst failures a client id may have in a row before it is throttled
   * @param clientPerMinute failures per minute a client id may sustain
   * @param addressBurst failures a source address may have in a row
   * @param addressPerMinute failures per minute a source address may sustain
   * @param maxTrackedKeys buckets kept per kind (client ids, addresses)
   */
  public record Limits(
      boolean enabled,
      int clientBurst,
      int clientPerMinute,
      int addressBurst,
      int addressPerMinute,
      long maxTrackedKeys) {
    public static final Limits DEFAULT = new Limits(true, 10, 10, 50, 50, 100_000);

    public Limits {
      positive("auth.tokenThrottle.clientBurst", clientBurst);
      positive("auth.tokenThrottle.clientFailuresPerMinute", clientPerMinute);
      positive("auth.tokenThrottle.addressBurst", addressBurst);
      positive("auth.tokenThrottle.addressFailuresPerMinute", addressPerMinute);
      if (maxTrackedKeys < 100 || maxTrackedKeys > 10_000_000) {
        throw new IllegalArgumentException(
            "auth.tokenThrottle.maxTrackedKeys must be between 100 and 10000000, got "
                + maxTrackedKeys);
      }
    }

    private static void positive(String key, int value) {
      if (value < 1 || value > 1_000_000) {
        throw new IllegalArgumentException(key + " must be between 1 and 1000000, got " + value);
      }
    }
  }

  private final Limits limits;
  private final LongSupplier nanos;
  private final Buckets clients;
  private final Buckets addresses;

  public TokenThrottle(Limits limits) {
    this(limits, System::nanoTime);
  }

  TokenThrottle(Limits limits, LongSupplier nanos) {
    this.limits = requireNonNull(limits, "limits");
    this.nanos = requireNonNull(nanos, "nanos");
    this.clients =
        new Buckets(limits.clientBurst(), limits.clientPerMinute(), limits.maxTrackedKeys());
    this.addresses =
        new Buckets(limits.addressBurst(), limits.addressPerMinute(), limits.maxTrackedKeys());
  }

  /**
   * Seconds to wait when {@code clientId} (may be null) or {@code address} has no failure left,
   * empty when the request may go ahead.
   */
  public OptionalLong check(String clientId, String address) {
    if (!limits.enabled()) {
      return OptionalLong.empty();
    }
    long now = nanos.getAsLong();
    long wait =
        Math.max(
            clientId == null ? 0 : clients.waitSeconds(clientId, now),
            addresses.waitSeconds(address, now));
    return wait > 0 ? OptionalLong.of(wait) : OptionalLong.empty();
  }

  /**
   * The throttle key of a peer address: the address itself, or for IPv6 its /64 prefix (what one
   * site is usually given, so one attacker cannot rotate through its addresses).
   */
  public static String addressKey(InetAddress address) {
    if (address == null) {
      return "<none>";
    }
    if (address instanceof Inet6Address) {
      byte[] bytes = address.getAddress();
      Arrays.fill(bytes, 8, 16, (byte) 0);
      try {
        return InetAddress.getByAddress(bytes).getHostAddress() + "/64";
      } catch (UnknownHostException e) {
        throw new IllegalStateException("16 bytes are an IPv6 address", e);
      }
    }
    return address.getHostAddress();
  }

  /** Counts one failed attempt against {@code clientId} (may be null) and {@code address}. */
  public void failed(String clientId, String address) {
    if (!limits.enabled()) {
      return;
    }
    long now = nanos.getAsLong();
    if (clientId != null) {
      clients.drain(clientId, now);
    }
    addresses.drain(address, now);
  }

  /** One kind of key (client ids or addresses) and its buckets. */
  private static final class Buckets {
    private final double burst;
    private final double perNano;
    private final Cache<String, Bucket> byKey;

    Buckets(int burst, int perMinute, long maxKeys) {
      this.burst = burst;
      this.perNano = perMinute / 60e9;
      // Idle for the time a full refill (plus the debt) takes: the bucket is full again, so
      // forgetting it changes nothing.
      Duration idle = Duration.ofSeconds((long) Math.ceil(2.0 * burst * 60 / perMinute) + 1);
      this.byKey = Caffeine.newBuilder().maximumSize(maxKeys).expireAfterAccess(idle).build();
    }

    long waitSeconds(String key, long now) {
      Bucket bucket = byKey.getIfPresent(key);
      return bucket == null ? 0 : bucket.waitSeconds(now, burst, perNano);
    }

    void drain(String key, long now) {
      byKey.get(key, k -> new Bucket(burst, now)).drain(now, burst, perNano);
    }
  }

  private static final class Bucket {
    private double tokens;
    private long updatedNanos;

    Bucket(double tokens, long now) {
      this.tokens = tokens;
      this.updatedNanos = now;
    }

    synchronized long waitSeconds(long now, double burst, double perNano) {
      refill(now, burst, perNano);
      // The epsilons absorb floating-point error in the refill: a bucket refilled to 0.9999999999
      // is full enough, and 6.000000001 s to wait is 6 s.
      if (tokens >= 1 - 1e-9) {
        return 0;
      }
      return Math.max(1, (long) Math.ceil((1 - tokens) / perNano / 1e9 - 1e-6));
    }

    synchronized void drain(long now, double burst, double perNano) {
      refill(now, burst, perNano);
      tokens = Math.max(tokens - 1, -burst);
    }

    private void refill(long now, double burst, double perNano) {
      tokens = Math.min(burst, tokens + Math.max(0, now - updatedNanos) * perNano);
      updatedNanos = now;
    }
  }
}
