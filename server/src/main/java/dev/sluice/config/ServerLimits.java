package dev.sluice.config;

import com.fasterxml.jackson.databind.JsonNode;
import java.time.Duration;
import java.util.Iterator;
import java.util.Set;

/**
 * What one client, with or without a token, may hold of the server ({@code server.limits}): open
 * connections, bytes of request bodies in flight across all requests, requests being handled at
 * once (in all and per principal), and how long a connection may idle or trickle. Past a limit the
 * server answers 503 with {@code Retry-After} (or closes the connection), never runs out of memory
 * or threads. Validated at boot; every error names its key.
 *
 * <pre>
 * server:
 *   limits:
 *     maxConnections: 1000              # open TCP connections; more wait in the accept queue
 *     maxConcurrentRequests: 128        # handled at once (the thread pool has 200); 503 beyond
 *     maxConcurrentRequestsPerPrincipal: 32
 *     inFlightBodyBytes: 67108864       # request bodies held at once (default: heap / 16, 8–256 MiB)
 *     idleTimeoutSeconds: 30            # a connection that sends nothing this long is closed
 *     minRequestDataRate: 1024          # bytes/s a request body must arrive at, else 408
 *     principalRequestsPerSecond: 0     # per principal, a token bucket; 0: off; 429 beyond
 *     principalBurst: 0                 # the bucket's size; 0: twice the rate
 * </pre>
 */
public record ServerLimits(
    int maxConnections,
    int maxConcurrentRequests,
    int maxConcurrentRequestsPerPrincipal,
    long inFlightBodyBytes,
    Duration idleTimeout,
    long minRequestDataRate,
    int principalRequestsPerSecond,
    int principalBurst) {
  /**
   * Request bodies held at once by default: a sixteenth of the heap, between 8 MiB and 256 MiB. A
   * handler's parse of a body takes several times its size (an 8 MB form or JSON document was about
   * 40 MB of heap), so the budget must be a small share of the heap: on a 256 MB heap, 16 MiB.
   */
  static final long DEFAULT_IN_FLIGHT_BODY_BYTES =
      Math.max(8L << 20, Math.min(256L << 20, Runtime.getRuntime().maxMemory() / 16));

  public static final ServerLimits DEFAULT =
      new ServerLimits(
          1000, 128, 32, DEFAULT_IN_FLIGHT_BODY_BYTES, Duration.ofSeconds(30), 1024, 0, 0);

  static final Set<String> KEYS =
      Set.of(
          "maxConnections",
          "maxConcurrentRequests",
          "maxConcurrentRequestsPerPrincipal",
          "inFlightBodyBytes",
          "idleTimeoutSeconds",
          "minRequestDataRate",
          "principalRequestsPerSecond",
          "principalBurst");

  private static final String KEY = "server.limits.";

  public ServerLimits {
    between("maxConnections", maxConnections, 8, 1_000_000);
    between("maxConcurrentRequests", maxConcurrentRequests, 1, 190);
    between(
        "maxConcurrentRequestsPerPrincipal",
        maxConcurrentRequestsPerPrincipal,
        1,
        maxConcurrentRequests);
    between("inFlightBodyBytes", inFlightBodyBytes, 1 << 20, 1L << 40);
    between("idleTimeoutSeconds", idleTimeout.toSeconds(), 1, 3600);
    between("minRequestDataRate", minRequestDataRate, 0, 1L << 30);
    between("principalRequestsPerSecond", principalRequestsPerSecond, 0, 1_000_000);
    between("principalBurst", principalBurst, 0, 10_000_000);
  }

  /** The token bucket's size: {@code principalBurst}, or twice the rate when that is 0. */
  public int effectivePrincipalBurst() {
    return principalBurst > 0 ? principalBurst : 2 * principalRequestsPerSecond;
  }

  /**
   * {@code server.limits}, each key defaulting to {@link #DEFAULT}'s; {@code maxRequestBytes} (one
   * body's limit) must fit in the in-flight budget.
   */
  static ServerLimits parse(JsonNode node, int maxRequestBytes) {
    ServerLimits limits = DEFAULT;
    if (node != null && !node.isNull()) {
      if (!node.isObject()) {
        throw new ConfigException("server.limits must be a mapping");
      }
      for (Iterator<String> names = node.fieldNames(); names.hasNext(); ) {
        String name = names.next();
        if (!KEYS.contains(name)) {
          throw new ConfigException("Unknown config key: " + KEY + name + " (known: " + KEYS + ")");
        }
      }
      long maxPerPrincipal =
          number(
              node, "maxConcurrentRequestsPerPrincipal", DEFAULT.maxConcurrentRequestsPerPrincipal);
      long max = number(node, "maxConcurrentRequests", DEFAULT.maxConcurrentRequests);
      limits =
          new ServerLimits(
              (int) number(node, "maxConnections", DEFAULT.maxConnections),
              (int) max,
              node.has("maxConcurrentRequestsPerPrincipal")
                  ? (int) maxPerPrincipal
                  : (int) Math.min(maxPerPrincipal, max),
              number(node, "inFlightBodyBytes", DEFAULT.inFlightBodyBytes),
              Duration.ofSeconds(
                  number(node, "idleTimeoutSeconds", DEFAULT.idleTimeout.toSeconds())),
              number(node, "minRequestDataRate", DEFAULT.minRequestDataRate),
              (int) number(node, "principalRequestsPerSecond", DEFAULT.principalRequestsPerSecond),
              (int) number(node, "principalBurst", DEFAULT.principalBurst));
    }
    if (limits.inFlightBodyBytes < maxRequestBytes) {
      throw new ConfigException(
          KEY
              + "inFlightBodyBytes ("
              + limits.inFlightBodyBytes
              + ") must be at least server.maxRequestBytes ("
              + maxRequestBytes
              + ")");
    }
    return limits;
  }

  private static long number(JsonNode node, String name, long fallback) {
    JsonNode value = node.get(name);
    if (value == null || value.isNull()) {
      return fallback;
    }
    if (!value.isIntegralNumber()) {
      throw new ConfigException(KEY + name + " must be an integer, got " + value);
    }
    return value.asLong();
  }

  private static void between(String name, long value, long min, long max) {
    if (value < min || value > max) {
      throw new ConfigException(
          KEY + name + " must be between " + min + " and " + max + ", got " + value);
    }
  }
}
