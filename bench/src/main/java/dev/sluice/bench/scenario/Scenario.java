package dev.sluice.bench.scenario;

import dev.sluice.bench.load.Workload;
import java.io.IOException;

/** One benchmark scenario: what it measures, and how to prepare one run of it on one target. */
public interface Scenario {
  /** Short, stable name: report rows, CSV and {@code --scenarios} use it. */
  String name();

  /** One line for the report: what one operation is. */
  String description();

  /**
   * Whether this target can run the scenario at all (asked once per target before anything is
   * measured): a feature only some catalogs offer, such as remote signing, is skipped elsewhere.
   */
  default boolean appliesTo(ScenarioContext context) throws IOException {
    return true;
  }

  /** Creates what the run needs (outside the measurement) and returns the clients' work. */
  Workload prepare(ScenarioContext context) throws IOException;
}
