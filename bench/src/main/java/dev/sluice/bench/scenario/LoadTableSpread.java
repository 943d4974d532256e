package dev.sluice.bench.scenario;

import dev.sluice.bench.http.HttpConnection;
import dev.sluice.bench.http.RequestEncoder;
import dev.sluice.bench.load.Operation;
import dev.sluice.bench.load.RequestSource;
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
    String[] labels = new String[paths.length];
    for (int i = 0; i < paths.length; i++) {
      labels[i] = "load " + paths[i];
    }
    return new Workload() {
      private byte[][] encoded; // the same requests for every client: encoded once

      @Override
      public Operation operation(int client, HttpConnection http) {
        SplittableRandom random = new SplittableRandom(31L * client + context.round());
        return TableLoad.operation(http, () -> paths[random.nextInt(paths.length)]);
      }

      @Override
      public RequestSource requests(int client, RequestEncoder encoder) {
        if (encoded == null) {
          encoded = new byte[paths.length][];
          for (int i = 0; i < paths.length; i++) {
            encoded[i] = encoder.get(paths[i]);
          }
        }
        SplittableRandom random = new SplittableRandom(31L * client + context.round());
        return RequestSource.of(labels, encoded, random::nextInt);
      }
    };
  }
}
