package dev.sluice.http;

import static java.util.Objects.requireNonNull;

import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
import java.time.Duration;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentMap;
import java.util.concurrent.TimeUnit;

/**
 * {@code http.server.requests} ({@code http_server_requests_seconds} in Prometheus), the name
 * Micrometer's own HTTP instrumentations use: every answer, by method, route template ({@code uri},
 * never the raw path, so a table name never becomes a label), status and outcome, as a histogram
 * with fixed buckets from 1 ms to 10 s. A request no route matched is {@code uri="UNMATCHED"}.
 */
final class RequestMetrics {
  static final String NAME = "http.server.requests";
  static final String UNMATCHED = "UNMATCHED";

  /** Wide enough for a store stall, fine enough for a 1 ms load. */
  private static final Duration[] BUCKETS = {
    Duration.ofMillis(1),
    Duration.ofMillis(2),
    Duration.ofMillis(5),
    Duration.ofMillis(10),
    Duration.ofMillis(25),
    Duration.ofMillis(50),
    Duration.ofMillis(100),
    Duration.ofMillis(250),
    Duration.ofMillis(500),
    Duration.ofSeconds(1),
    Duration.ofMillis(2500),
    Duration.ofSeconds(5),
    Duration.ofSeconds(10)
  };

  private record Key(String method, String uri, int status) {}

  private final MeterRegistry registry;
  // One lookup per answer instead of a builder: the tags of a route, method and status repeat.
  private final ConcurrentMap<Key, Timer> timers = new ConcurrentHashMap<>();

  RequestMetrics(MeterRegistry registry) {
    this.registry = requireNonNull(registry, "registry");
  }

  /**
   * Records one answer. {@code method} is only ever one of the routes' methods or, for an unmatched
   * request, folded to {@code OTHER} when it is not a standard one, so a client cannot mint labels.
   */
  void record(String method, String template, int status, long nanos) {
    String uri = template == null ? UNMATCHED : template;
    String verb = template == null ? standardOrOther(method) : method;
    timers
        .computeIfAbsent(new Key(verb, uri, status), this::timer)
        .record(nanos, TimeUnit.NANOSECONDS);
  }

  private Timer timer(Key key) {
    return Timer.builder(NAME)
        .description("Requests answered, by method, route template, status and outcome")
        .tag("method", key.method())
        .tag("uri", key.uri())
        .tag("status", Integer.toString(key.status()))
        .tag("outcome", outcome(key.status()))
        .serviceLevelObjectives(BUCKETS)
        .register(registry);
  }

  static String outcome(int status) {
    if (status < 200) {
      return "INFORMATIONAL";
    }
    if (status < 300) {
      return "SUCCESS";
    }
    if (status < 400) {
      return "REDIRECTION";
    }
    return status < 500 ? "CLIENT_ERROR" : "SERVER_ERROR";
  }

  private static String standardOrOther(String method) {
    return switch (method) {
      case "GET", "HEAD", "POST", "PUT", "DELETE", "PATCH", "OPTIONS" -> method;
      default -> "OTHER";
    };
  }
}
