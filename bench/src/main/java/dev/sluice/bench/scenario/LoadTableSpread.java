package dev.sluice.bench.scenario;

import dev.sluice.bench.http.HttpResult;
import dev.sluice.bench.load.OperationFailed;
import dev.sluice.bench.load.Workload;
import java.util.SplittableRandom;

/** Loads of tables picked uniformly at random among the M fixture tables. */
public final class LoadTableSpread implements Scenario {
  @Override
  public String name() {
    return "loadTable-spread";
  }

  @Override
  public String description() {
    return "GET a random one of the M fixture tables";
  }

  @Override
  public Workload prepare(ScenarioContext context) {
    String[] paths = new String[context.tables()];
    for (int i = 0; i < paths.length; i++) {
      paths[i] = context.endpoint().table(Fixture.READ_NAMESPACE, Fixture.readTable(i));
    }
    return (client, http) -> {
      SplittableRandom random = new SplittableRandom(31L * client + context.round());
      return () -> {
        String path = paths[random.nextInt(paths.length)];
        HttpResult result = http.get(path);
        if (!result.ok()) {
          throw new OperationFailed("load " + path, result);
        }
        return 0;
      };
    };
  }
}
