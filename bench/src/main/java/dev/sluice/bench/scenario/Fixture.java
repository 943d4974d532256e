package dev.sluice.bench.scenario;

import dev.sluice.bench.catalog.CatalogCalls;
import java.io.IOException;
import java.util.List;

/**
 * The data every server gets before any measurement: namespace {@code bench} with tables {@code
 * t0..t<M-1>} (read and listed), and empty namespaces for the tables that the create and commit
 * scenarios make as they go.
 */
public final class Fixture {
  public static final String READ_NAMESPACE = "bench";
  public static final String CREATE_NAMESPACE = "bench_create";
  public static final String COMMIT_NAMESPACE = "bench_commit";

  /** Empty through the API; the scale phase fills it straight in the store (TableSeeder). */
  public static final String SCALE_NAMESPACE = "bench_scale";

  public static final List<String> NAMESPACES =
      List.of(READ_NAMESPACE, CREATE_NAMESPACE, COMMIT_NAMESPACE, SCALE_NAMESPACE);

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
}
