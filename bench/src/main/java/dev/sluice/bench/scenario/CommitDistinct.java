package dev.sluice.bench.scenario;

import dev.sluice.bench.catalog.TableState;
import dev.sluice.bench.load.Workload;
import java.io.IOException;

/**
 * Each client appends to a table of its own (fresh tables per run): commits that never conflict.
 */
public final class CommitDistinct implements Scenario {
  @Override
  public String name() {
    return "commit-distinct";
  }

  @Override
  public String description() {
    return "append a snapshot (add-snapshot + set-snapshot-ref, assert-ref-snapshot-id) to the client's own table";
  }

  @Override
  public Workload prepare(ScenarioContext context) throws IOException {
    String[] paths = new String[context.clients()];
    TableState[] states = new TableState[context.clients()];
    for (int i = 0; i < paths.length; i++) {
      String table = "d_" + context.runTag() + "_c" + i;
      states[i] = context.setup().ensureTable(Fixture.COMMIT_NAMESPACE, table);
      paths[i] = context.endpoint().table(Fixture.COMMIT_NAMESPACE, table);
    }
    return (client, http) ->
        new Appender(http, paths[client], states[client], 17L * client + context.round());
  }
}
