package dev.sluice.bench.scenario;

import dev.sluice.bench.catalog.TableState;
import dev.sluice.bench.load.Workload;
import java.io.IOException;

/**
 * All clients append to one table (fresh per run): commits serialize on it, most attempts conflict
 * and are retried after a reload. Throughput is landed appends per second.
 */
public final class CommitShared implements Scenario {
  @Override
  public String name() {
    return "commit-shared";
  }

  @Override
  public String description() {
    return "append a snapshot to one table shared by all clients (409 → reload → retry, counted as conflicts)";
  }

  @Override
  public Workload prepare(ScenarioContext context) throws IOException {
    String table = "s_" + context.runTag();
    TableState initial = context.setup().ensureTable(Fixture.COMMIT_NAMESPACE, table);
    String path = context.endpoint().table(Fixture.COMMIT_NAMESPACE, table);
    return (client, http) -> new Appender(http, path, initial, 7919L * client + context.round());
  }
}
