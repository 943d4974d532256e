package dev.sluice.config;

import static dev.sluice.config.Bounds.between;
import static dev.sluice.config.Bounds.orDefault;

import java.time.Duration;

/**
 * What one client, with or without a token, may hold of the server ({@code server.limits}): open
 * connections, bytes of request bodies in flight across all requests, requests being handled at
 * once (in all and per principal), and how long a connection may idle or trickle. Past a limit the
 * server answers 503 with {@code Retry-After} (or closes the connection), never runs out of memory
 * or threads. Validated at boot; every error names its key. Each key's default and bounds are in
 * docs/CONFIGURATION.md; an absent key (null here) takes its default.
 */
public record ServerLimits(
    Integer maxConnections,
    Integer maxConcurrentRequests,
    Integer maxConcurrentRequestsPerPrincipal,
    Long inFlightBodyBytes,
    Integer idleTimeoutSeconds,
    Long minRequestDataRate,
    Integer principalRequestsPerSecond,
    Integer principalBurst) {
  /**
   * Request bodies held at once by default: a sixteenth of the heap, between 8 MiB and 256 MiB. A
   * handler's parse of a body takes several times its size (an 8 MB form or JSON document was about
   * 40 MB of heap), so the budget must be a small share of the heap: on a 256 MB heap, 16 MiB.
   */
  static final long DEFAULT_IN_FLIGHT_BODY_BYTES =
      Math.max(8L << 20, Math.min(256L << 20, Runtime.getRuntime().maxMemory() / 16));

  /** Requests handled at once per principal by default, capped by the total. */
  private static final int DEFAULT_PER_PRINCIPAL = 32;

  public static final ServerLimits DEFAULT =
      new ServerLimits(null, null, null, null, null, null, null, null);

  private static final String KEY = "server.limits.";

  public ServerLimits {
    maxConnections = orDefault(maxConnections, 1000);
    // The thread pool has 200; a few are the connector's own.
    maxConcurrentRequests = orDefault(maxConcurrentRequests, 128);
    maxConcurrentRequestsPerPrincipal =
        orDefault(
            maxConcurrentRequestsPerPrincipal,
            Math.min(DEFAULT_PER_PRINCIPAL, maxConcurrentRequests));
    inFlightBodyBytes = orDefault(inFlightBodyBytes, DEFAULT_IN_FLIGHT_BODY_BYTES);
    idleTimeoutSeconds = orDefault(idleTimeoutSeconds, 30);
    minRequestDataRate = orDefault(minRequestDataRate, 1024L);
    principalRequestsPerSecond = orDefault(principalRequestsPerSecond, 0); // 0: off
    principalBurst = orDefault(principalBurst, 0); // 0: twice the rate
    between(KEY + "maxConnections", maxConnections, 8, 1_000_000);
    between(KEY + "maxConcurrentRequests", maxConcurrentRequests, 1, 190);
    between(
        KEY + "maxConcurrentRequestsPerPrincipal",
        maxConcurrentRequestsPerPrincipal,
        1,
        maxConcurrentRequests);
    between(KEY + "inFlightBodyBytes", inFlightBodyBytes, 1 << 20, 1L << 40);
    between(KEY + "idleTimeoutSeconds", idleTimeoutSeconds, 1, 3600);
    between(KEY + "minRequestDataRate", minRequestDataRate, 0, 1L << 30);
    between(KEY + "principalRequestsPerSecond", principalRequestsPerSecond, 0, 1_000_000);
    between(KEY + "principalBurst", principalBurst, 0, 10_000_000);
  }

  /** How long a connection that sends nothing stays open. */
  public Duration idleTimeout() {
    return Duration.ofSeconds(idleTimeoutSeconds);
  }

  /** The token bucket's size: {@code principalBurst}, or twice the rate when that is 0. */
  public int effectivePrincipalBurst() {
    return principalBurst > 0 ? principalBurst : 2 * principalRequestsPerSecond;
  }

  /** {@code maxRequestBytes} (one body's limit) must fit in the in-flight budget. */
  void requireRoomFor(int maxRequestBytes) {
    if (inFlightBodyBytes < maxRequestBytes) {
      throw new ConfigException(
          KEY
              + "inFlightBodyBytes ("
              + inFlightBodyBytes
              + ") must be at least server.maxRequestBytes ("
              + maxRequestBytes
              + ")");
    }
  }
}
