package dev.sluice.bench.scenario;

import dev.sluice.bench.catalog.CatalogCalls;
import java.io.IOException;
import java.util.List;

/**
 * The data every server gets before any measurement: namespace {@code bench} with tables
 * {@code t0..t<M-1>} (read and listed), and empty namespaces for the tables that the create and
 * commit scenarios make as they go.
 */
public final class Fixture {
  public static final String READ_NAMESPACE = "bench";
  public static final String CREATE_NAMESPACE = "bench_create";
  public static final String COMMIT_NAMESPACE = "bench_commit";
  public static final List<String> NAMESPACES = List.of(READ_NAMESPACE, CREATE_NAMESPACE, COMMIT_NAMESPACE);

  private Fixture() {}

  public static String readTable(int i) {
    return "t" + i;
  }

  /**
   * Creates the namespaces and {@code tables} read tables, one by one through the REST API
   * (about a millisecond each). {@code --tables} sets M; scale runs with 100k or 1M tables need a
   * bulk seeding path instead of this loop, and plug in here.
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
