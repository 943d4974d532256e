package dev.sluice.http;

import static java.util.Objects.requireNonNull;

import dev.sluice.store.Store;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import java.util.Map;

/**
 * {@code /healthz}: the process is up and serving; {@code /readyz}: and its database answers;
 * {@code /metrics}.
 */
public final class HealthRoutes {
  private final Store store;
  private final PrometheusMeterRegistry metrics;

  public HealthRoutes(Store store, PrometheusMeterRegistry metrics) {
    this.store = requireNonNull(store, "store");
    this.metrics = requireNonNull(metrics, "metrics");
  }

  public void register(HttpServer.Routes routes) {
    routes.addPublic("GET", "/healthz", x -> Reply.okPlain(Map.of("status", "UP")));
    // Prometheus text format; counters and timings only, no names of tables or principals.
    routes.addPublic("GET", "/metrics", x -> Reply.okPlain(metrics.scrape()));
    routes.addPublic(
        "GET",
        "/readyz",
        x ->
            store.ping()
                ? Reply.okPlain(Map.of("status", "READY"))
                : Reply.status(503, Map.of("status", "DATABASE_UNREACHABLE")));
  }
}
