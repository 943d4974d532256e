package dev.sluice.bench.scenario;

import dev.sluice.bench.catalog.CatalogCalls;
import dev.sluice.bench.target.Endpoint;

/**
 * What a scenario may use to prepare a run: the target (with its prefix and credentials), a
 * connection for setup calls, which round this is (so fresh tables get fresh names), the number of
 * clients, and the fixture's size.
 */
public record ScenarioContext(
    Endpoint endpoint, CatalogCalls setup, int round, int clients, int tables, int pageSize) {
  /** A name part unique to this target and round: tables made for a run are never reused. */
  public String runTag() {
    return endpoint.name().replace('-', '_') + "_r" + round;
  }
}
