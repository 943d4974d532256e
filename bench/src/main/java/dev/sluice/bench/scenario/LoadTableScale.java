package dev.sluice.bench.scenario;

import dev.sluice.bench.http.HttpConnection;
import dev.sluice.bench.http.RequestEncoder;
import dev.sluice.bench.load.Operation;
import dev.sluice.bench.load.RequestSource;
import dev.sluice.bench.load.Workload;
import dev.sluice.bench.scale.TableSeeder;
import java.util.SplittableRandom;

/** Loads of tables picked uniformly at random among the N tables of the scale namespace. */
public final class LoadTableScale implements Scenario {
  private final int tables;

  public LoadTableScale(int tables) {
    this.tables = tables;
  }

  /** {@code loadTable-1k}, {@code loadTable-100k}, {@code loadTable-1M}, … */
  public static String nameFor(int tables) {
    if (tables % 1_000_000 == 0) {
      return "loadTable-" + tables / 1_000_000 + "M";
    }
    return tables % 1_000 == 0 ? "loadTable-" + tables / 1_000 + "k" : "loadTable-" + tables;
  }

  @Override
  public String name() {
    return nameFor(tables);
  }

  @Override
  public String description() {
    return "GET a random one of "
        + String.format("%,d", tables)
        + " tables in namespace `"
        + Fixture.SCALE_NAMESPACE
        + "` (seeded into the store; see Scale)";
  }

  @Override
  public Workload prepare(ScenarioContext context) {
    String prefix = context.endpoint().tables(Fixture.SCALE_NAMESPACE) + "/";
    return new Workload() {
      @Override
      public Operation operation(int client, HttpConnection http) {
        SplittableRandom random = new SplittableRandom(97L * client + context.round());
        return TableLoad.operation(
            http, () -> prefix + TableSeeder.tableName(random.nextInt(tables)));
      }

      /** Encoded as it goes: up to a million distinct requests are too many to encode before. */
      @Override
      public RequestSource requests(int client, RequestEncoder encoder) {
        SplittableRandom random = new SplittableRandom(97L * client + context.round());
        return new RequestSource() {
          private String path;

          @Override
          public byte[] next() {
            path = prefix + TableSeeder.tableName(random.nextInt(tables));
            return encoder.get(path);
          }

          @Override
          public String check(int status, byte[] body, int length) {
            return RequestSource.unless2xx("load " + path, status, body, length);
          }
        };
      }
    };
  }
}
