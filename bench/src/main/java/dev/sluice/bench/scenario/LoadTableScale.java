package dev.sluice.bench.scenario;

import dev.sluice.bench.http.HttpConnection;
import dev.sluice.bench.http.RequestEncoder;
import dev.sluice.bench.load.Operation;
import dev.sluice.bench.load.RequestSource;
import dev.sluice.bench.load.Workload;
import dev.sluice.bench.scale.TableSeeder;
import java.util.SplittableRandom;

/**
 * Loads of tables picked uniformly at random among the N tables of the scale namespace, or, with a
 * working set, among {@code hot} of them spread evenly over the N (every N/hot-th table), as
 * engines that query a few tables of a large catalog do.
 */
public final class LoadTableScale implements Scenario {
  /**
   * The scale phase's working set: this many tables spread over the catalog, as many as the
   * smallest default size holds, so the two can be compared.
   */
  public static final int WORKING_SET = 1_000;

  private final int tables;
  private final int hot;

  /** Uniform over all {@code tables}. */
  public LoadTableScale(int tables) {
    this(tables, tables);
  }

  /** Uniform over a working set of {@code hot} of the {@code tables}. */
  public LoadTableScale(int tables, int hot) {
    if (hot < 1 || hot > tables) {
      throw new IllegalArgumentException(
          "working set must be 1.." + tables + " tables, got " + hot);
    }
    this.tables = tables;
    this.hot = hot;
  }

  /** {@code loadTable-1k}, {@code loadTable-100k}, {@code loadTable-1M}, … */
  public static String nameFor(int tables) {
    return "loadTable-" + count(tables);
  }

  /** {@code loadTable-1M-hot1k}: loads among 1k of a million tables. */
  public static String nameFor(int tables, int hot) {
    return hot == tables ? nameFor(tables) : nameFor(tables) + "-hot" + count(hot);
  }

  private static String count(int n) {
    if (n % 1_000_000 == 0) {
      return n / 1_000_000 + "M";
    }
    return n % 1_000 == 0 ? n / 1_000 + "k" : Integer.toString(n);
  }

  @Override
  public String name() {
    return nameFor(tables, hot);
  }

  @Override
  public String description() {
    String among =
        hot == tables
            ? "a random one of " + String.format("%,d", tables) + " tables"
            : String.format(
                "a random one of %,d tables (every %,dth) of the %,d", hot, tables / hot, tables);
    return "GET "
        + among
        + " in namespace `"
        + Fixture.SCALE_NAMESPACE
        + "` (seeded into the store; see Scale)";
  }

  /** The {@code i}-th table of the working set. */
  private String table(int i) {
    return TableSeeder.tableName(i * (tables / hot));
  }

  @Override
  public Workload prepare(ScenarioContext context) {
    String prefix = context.endpoint().tables(Fixture.SCALE_NAMESPACE) + "/";
    return new Workload() {
      @Override
      public Operation operation(int client, HttpConnection http) {
        SplittableRandom random = new SplittableRandom(97L * client + context.round());
        return TableLoad.operation(http, () -> prefix + table(random.nextInt(hot)));
      }

      /** Encoded as it goes: up to a million distinct requests are too many to encode before. */
      @Override
      public RequestSource requests(int client, RequestEncoder encoder) {
        SplittableRandom random = new SplittableRandom(97L * client + context.round());
        return new RequestSource() {
          private String path;

          @Override
          public byte[] next() {
            path = prefix + table(random.nextInt(hot));
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
