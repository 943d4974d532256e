package dev.sluice.http;

import static java.util.Objects.requireNonNull;

import dev.sluice.store.Store;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import java.util.Map;
import java.util.function.BooleanSupplier;

/**
 * {@code /healthz}: the process is up and serving (it touches nothing else, so a database outage
 * never makes an orchestrator restart every replica); {@code /readyz}: and its store can write;
 * {@code /metrics}. All three are probes: not counted against the request limits.
 */
public final class HealthRoutes {
  /** The scrape path; with {@code server.metricsPort} set, served on that port only. */
  public static final String METRICS = "/metrics";

  private final Store store;
  private final PrometheusMeterRegistry metrics;
  private final BooleanSupplier stopping;

  /** {@code stopping}: the server has begun to stop; not ready from then on, whatever the store. */
  public HealthRoutes(Store store, PrometheusMeterRegistry metrics, BooleanSupplier stopping) {
    this.store = requireNonNull(store, "store");
    this.metrics = requireNonNull(metrics, "metrics");
    this.stopping = requireNonNull(stopping, "stopping");
  }

  public void register(HttpServer.Routes routes) {
    routes.addProbe("GET", "/healthz", x -> Reply.okPlain(Map.of("status", "UP")));
    // Prometheus text format; counters and timings only, no names of tables or principals.
    routes.addProbe("GET", METRICS, x -> Reply.okPlain(metrics.scrape()));
    routes.addProbe(
        "GET",
        "/readyz",
        x -> {
          if (stopping.getAsBoolean()) {
            return Reply.status(503, Map.of("status", "STOPPING"));
          }
          return store.ping()
              ? Reply.okPlain(Map.of("status", "READY"))
              : Reply.status(503, Map.of("status", "DATABASE_UNREACHABLE"));
        });
  }
}
