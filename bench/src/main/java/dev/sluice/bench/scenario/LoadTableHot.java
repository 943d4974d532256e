package dev.sluice.bench.scenario;

import dev.sluice.bench.http.HttpConnection;
import dev.sluice.bench.http.RequestEncoder;
import dev.sluice.bench.load.Operation;
import dev.sluice.bench.load.RequestSource;
import dev.sluice.bench.load.Workload;
import java.util.Objects;

/**
 * Every client loads the same table: the best case for any cache, and the request path's floor.
 * {@code loadTable-hot} loads the fixture's one-column {@code bench.t0}; {@code loadTable-large}
 * loads {@code bench_large.large}, a table with a history, whose answer is its whole metadata.
 */
public final class LoadTableHot implements Scenario {
  private final String name;
  private final String namespace;
  private final String table;
  private final String description;

  /** {@code loadTable-hot}: {@code bench.t0}. */
  public LoadTableHot() {
    this(
        "loadTable-hot",
        Fixture.READ_NAMESPACE,
        Fixture.readTable(0),
        "GET one table (bench.t0) by every client");
  }

  private LoadTableHot(String name, String namespace, String table, String description) {
    this.name = Objects.requireNonNull(name, "name");
    this.namespace = Objects.requireNonNull(namespace, "namespace");
    this.table = Objects.requireNonNull(table, "table");
    this.description = Objects.requireNonNull(description, "description");
  }

  /** {@code loadTable-large}: {@code bench_large.large}, answered in full. */
  public static LoadTableHot large() {
    return new LoadTableHot(
        "loadTable-large",
        Fixture.LARGE_NAMESPACE,
        Fixture.LARGE_TABLE,
        "GET bench_large.large (--large-snapshots metadata-only snapshots, its whole metadata in"
            + " the answer) by every client");
  }

  @Override
  public String name() {
    return name;
  }

  @Override
  public String description() {
    return description;
  }

  @Override
  public Workload prepare(ScenarioContext context) {
    String path = context.endpoint().table(namespace, table);
    return new Workload() {
      @Override
      public Operation operation(int client, HttpConnection http) {
        return TableLoad.operation(http, () -> path);
      }

      @Override
      public RequestSource requests(int client, RequestEncoder encoder) {
        return RequestSource.of(
            new String[] {"load " + path}, new byte[][] {encoder.get(path)}, bound -> 0);
      }
    };
  }
}
