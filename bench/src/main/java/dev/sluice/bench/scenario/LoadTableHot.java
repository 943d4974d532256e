package dev.sluice.bench.scenario;

import dev.sluice.bench.http.HttpConnection;
import dev.sluice.bench.http.HttpResult;
import dev.sluice.bench.http.RequestEncoder;
import dev.sluice.bench.load.Operation;
import dev.sluice.bench.load.OperationFailed;
import dev.sluice.bench.load.RequestSource;
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
    return new Workload() {
      @Override
      public Operation operation(int client, HttpConnection http) {
        return () -> {
          HttpResult result = http.get(path);
          if (!result.ok()) {
            throw new OperationFailed("load " + path, result);
          }
          return 0;
        };
      }

      @Override
      public RequestSource requests(int client, RequestEncoder encoder) {
        return RequestSource.of(
            new String[] {"load " + path}, new byte[][] {encoder.get(path)}, bound -> 0);
      }
    };
  }
}
