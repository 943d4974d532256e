package dev.sluice.bench.scenario;

import dev.sluice.bench.catalog.TableBodies;
import dev.sluice.bench.http.HttpResult;
import dev.sluice.bench.load.Operation;
import dev.sluice.bench.load.OperationFailed;
import dev.sluice.bench.load.Workload;
import java.io.IOException;

/** Each operation creates a new table (writes its first metadata file and registers it). */
public final class CreateTables implements Scenario {
  @Override
  public String name() {
    return "createTable";
  }

  @Override
  public String description() {
    return "POST a new one-column table into bench_create";
  }

  @Override
  public Workload prepare(ScenarioContext context) {
    String path = context.endpoint().tables(Fixture.CREATE_NAMESPACE);
    String tag = context.runTag();
    return (client, http) ->
        new Operation() {
          private int next;

          @Override
          public int run() throws IOException {
            String name = tag + "_c" + client + "_" + next++;
            HttpResult result = http.postJson(path, TableBodies.createTable(name));
            if (!result.ok()) {
              throw new OperationFailed("create " + name, result);
            }
            return 0;
          }
        };
  }
}
