package dev.sluice.bench.scenario;

import dev.sluice.bench.http.HttpResult;
import dev.sluice.bench.load.OperationFailed;
import dev.sluice.bench.load.Workload;

/** Every client loads the same table: the best case for any cache, and the request path's floor. */
public final class LoadTableHot implements Scenario {
  @Override
  public String name() {
    return "loadTable-hot";
  }

  @Override
  public String description() {
    return "GET one table (bench.t0) by every client";
  }

  @Override
  public Workload prepare(ScenarioContext context) {
    String path = context.endpoint().table(Fixture.READ_NAMESPACE, Fixture.readTable(0));
    return (client, http) ->
        () -> {
          HttpResult result = http.get(path);
          if (!result.ok()) {
            throw new OperationFailed("load " + path, result);
          }
          return 0;
        };
  }
}
