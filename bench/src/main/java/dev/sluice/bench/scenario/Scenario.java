package dev.sluice.bench.scenario;

import dev.sluice.bench.load.Workload;
import java.io.IOException;

/** One benchmark scenario: what it measures, and how to prepare one run of it on one target. */
public interface Scenario {
  /** Short, stable name: report rows, CSV and {@code --scenarios} use it. */
  String name();

  /** One line for the report: what one operation is. */
  String description();

  /** Creates what the run needs (outside the measurement) and returns the clients' work. */
  Workload prepare(ScenarioContext context) throws IOException;
}
