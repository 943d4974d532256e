package dev.sluice.e2e.durability;

import static java.util.Objects.requireNonNull;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;

/** A replica's Prometheus {@code /metrics} (public, no token), read one value at a time. */
final class ReplicaMetrics {
  static final String CACHE_HITS = "sluice_store_pointer_cache_hits_total";
  static final String CACHE_MISSES = "sluice_store_pointer_cache_misses_total";
  static final String CACHE_BYPASSES = "sluice_store_pointer_cache_bypasses_total";
  static final String CACHE_BEHIND = "sluice_store_pointer_cache_behind_total";
  static final String BARRIERS_SENT = "sluice_store_pointer_barriers_sent_total";
  static final String INVALIDATIONS_RECEIVED = "sluice_store_pointer_invalidations_received_total";
  static final String LISTENER_RECONNECTS = "sluice_store_pointer_listener_reconnects_total";
  static final String LISTENER_HEALTHY = "sluice_store_pointer_listener_healthy";

  private static final HttpClient HTTP =
      HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();

  private final String text;

  private ReplicaMetrics(String text) {
    this.text = text;
  }

  /** One scrape of {@code replica}'s metrics. */
  static ReplicaMetrics of(ReplicaCluster.Replica replica) {
    requireNonNull(replica, "replica");
    HttpRequest request =
        HttpRequest.newBuilder(URI.create(replica.rootUrl() + "/metrics"))
            .timeout(Duration.ofSeconds(10))
            .GET()
            .build();
    try {
      HttpResponse<String> response = HTTP.send(request, HttpResponse.BodyHandlers.ofString());
      if (response.statusCode() != 200) {
        throw new IllegalStateException(
            "GET " + request.uri() + " answered " + response.statusCode());
      }
      return new ReplicaMetrics(response.body());
    } catch (IOException e) {
      throw new UncheckedIOException("GET " + request.uri() + " failed", e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException(e);
    }
  }

  /** The value of the (untagged) meter {@code name}; fails if the scrape has none. */
  double value(String name) {
    for (String line : text.split("\n")) {
      if (line.startsWith(name + " ") || line.startsWith(name + "{")) {
        return Double.parseDouble(line.substring(line.lastIndexOf(' ') + 1));
      }
    }
    throw new AssertionError("no metric " + name + " in /metrics");
  }

  long count(String name) {
    return (long) value(name);
  }
}
