package dev.sluice.bench.scenario;

import dev.sluice.bench.catalog.CatalogCalls;
import dev.sluice.bench.target.Endpoint;
import java.io.IOException;
import java.util.List;

/**
 * The data every server gets before any measurement: namespace {@code bench} with tables {@code
 * t0..t<M-1>} (read and listed), table {@code bench_large.large} with a history (loaded whole and
 * revalidated), and empty namespaces for the tables that the create and commit scenarios make as
 * they go.
 */
public final class Fixture {
  public static final String READ_NAMESPACE = "bench";
  public static final String CREATE_NAMESPACE = "bench_create";
  public static final String COMMIT_NAMESPACE = "bench_commit";

  /** Empty through the API; the scale phase fills it straight in the store (TableSeeder). */
  public static final String SCALE_NAMESPACE = "bench_scale";

  /**
   * The large table's own namespace, not {@code bench}: there it would be a 101st table in
   * listTables-paged's pages and a metadata file the scale phase's seeded tables reuse.
   */
  public static final String LARGE_NAMESPACE = "bench_large";

  public static final String LARGE_TABLE = "large";

  /** The plan phase's tables (PlanTable): a namespace of their own, so no listing sees them. */
  public static final String PLAN_NAMESPACE = "bench_plan";

  public static final List<String> NAMESPACES =
      List.of(
          READ_NAMESPACE,
          CREATE_NAMESPACE,
          COMMIT_NAMESPACE,
          SCALE_NAMESPACE,
          LARGE_NAMESPACE,
          PLAN_NAMESPACE);

  private Fixture() {}

  public static String readTable(int i) {
    return "t" + i;
  }

  /**
   * Creates the namespaces and {@code tables} read tables, one by one through the REST API (about a
   * millisecond each). {@code --tables} sets M; the scale phase's 100k or 1M tables are seeded in
   * bulk instead (TableSeeder).
   */
  public static void seed(CatalogCalls calls, int tables) throws IOException {
    for (String namespace : NAMESPACES) {
      calls.ensureNamespace(namespace);
    }
    for (int i = 0; i < tables; i++) {
      calls.ensureTable(READ_NAMESPACE, readTable(i));
    }
  }

  /**
   * Creates {@code bench_large.large} (unless it exists) and grows it to {@code snapshots}
   * metadata-only appends as the history phase grows its tables ({@link HistoryTable#growTo}:
   * {@code perRequest} appends per commit request), so that every target holds a table of the same
   * shape; returns the snapshots it holds.
   */
  public static long growLarge(Endpoint endpoint, long snapshots, int perRequest)
      throws IOException {
    try (HistoryTable table = HistoryTable.open(endpoint, LARGE_NAMESPACE, LARGE_TABLE)) {
      table.growTo(snapshots, perRequest);
      return table.snapshots();
    }
  }
}
