package dev.sluice.http;

import static java.util.Objects.requireNonNull;

import dev.sluice.store.Store;
import java.util.Map;

/** {@code /healthz}: the process is up and serving; {@code /readyz}: and its database answers. */
public final class HealthRoutes {
  private final Store store;

  public HealthRoutes(Store store) {
    this.store = requireNonNull(store, "store");
  }

  public void register(HttpServer.Routes routes) {
    routes.addPublic("GET", "/healthz", x -> Reply.okPlain(Map.of("status", "UP")));
    routes.addPublic(
        "GET",
        "/readyz",
        x -> store.ping()
            ? Reply.okPlain(Map.of("status", "READY"))
            : Reply.status(503, Map.of("status", "DATABASE_UNREACHABLE")));
  }
}
