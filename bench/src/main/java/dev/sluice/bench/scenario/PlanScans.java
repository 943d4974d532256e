package dev.sluice.bench.scenario;

import static java.util.Objects.requireNonNull;

import dev.sluice.bench.catalog.LocalFilesIO;
import dev.sluice.bench.http.HttpConnection;
import dev.sluice.bench.load.Operation;
import dev.sluice.bench.load.Workload;
import dev.sluice.bench.target.Endpoint;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import org.apache.iceberg.FileScanTask;
import org.apache.iceberg.Table;
import org.apache.iceberg.TableScan;
import org.apache.iceberg.catalog.TableIdentifier;
import org.apache.iceberg.expressions.Expression;
import org.apache.iceberg.io.CloseableIterable;
import org.apache.iceberg.rest.RESTCatalog;

/**
 * One run's workload of the plan phase: each client has its own Iceberg {@link RESTCatalog} (its
 * own HTTP connections), and one operation is what an engine does to plan a query: {@code
 * loadTable}, then {@code newScan().filter(…).planFiles()} iterated to its last task and closed.
 * With client-side planning the client reads the manifests from the warehouse itself; with
 * server-side planning ({@code scan-planning-mode=server}) Iceberg's client sends {@code POST
 * …/plan}, fetches the plan's task pages ({@code POST …/tasks}) and, when the tasks are closed,
 * cancels the plan ({@code DELETE …/plan/{id}}). Every operation checks that it planned exactly the
 * files the table holds for its filter: a wrong plan is an error, not a fast one.
 */
public final class PlanScans implements Workload, AutoCloseable {
  /** Where the manifests are read. */
  public enum Mode {
    CLIENT,
    SERVER;

    public String label() {
      return name().toLowerCase(Locale.ROOT);
    }
  }

  /** What the scan asks for. */
  public enum Scope {
    /** One day's partition of {@link PlanTable#days()}. */
    PARTITION,
    /** Every file. */
    FULL;

    public String label() {
      return name().toLowerCase(Locale.ROOT);
    }
  }

  private final Endpoint endpoint;
  private final TableIdentifier table;
  private final PlanTable shape;
  private final Mode mode;
  private final Expression filter;
  private final long expectedFiles;
  private final List<RESTCatalog> catalogs = new ArrayList<>();

  public PlanScans(
      Endpoint endpoint, TableIdentifier table, PlanTable shape, Mode mode, Scope scope) {
    this.endpoint = requireNonNull(endpoint, "endpoint");
    this.table = requireNonNull(table, "table");
    this.mode = requireNonNull(mode, "mode");
    this.shape = requireNonNull(shape, "shape");
    this.filter = scope == Scope.PARTITION ? shape.partitionFilter() : null;
    this.expectedFiles = scope == Scope.PARTITION ? shape.filesInPartition() : shape.files();
  }

  /** {@code plan-partition-server-4c}: the run's scenario name. */
  public static String nameFor(Scope scope, Mode mode, int clients) {
    return "plan-" + scope.label() + "-" + mode.label() + "-" + clients + "c";
  }

  /** Whether {@code scenario} is a run of the plan phase. */
  public static boolean isPlan(String scenario) {
    return scenario.startsWith("plan-");
  }

  @Override
  public synchronized Operation operation(int client, HttpConnection unused) {
    RESTCatalog catalog = shape.catalog(endpoint, mode == Mode.SERVER);
    catalogs.add(catalog);
    return () -> planOnce(catalog);
  }

  private int planOnce(RESTCatalog catalog) throws IOException {
    Table loaded = catalog.loadTable(table);
    TableScan scan = loaded.newScan();
    // Iceberg's client picks server-side planning by the class of scan it makes: check that each
    // mode measures what it says.
    boolean remote = scan.getClass().getSimpleName().equals("RESTTableScan");
    if (remote != (mode == Mode.SERVER)) {
      throw new IllegalStateException(
          "Asked for " + mode.label() + "-side planning, got a " + scan.getClass().getName());
    }
    // The client's FileIO reads the manifests in client-side planning: check it is the one asked.
    boolean local = loaded.io() instanceof LocalFilesIO;
    if (local == shape.hadoopIo()) {
      throw new IllegalStateException(
          "The client reads files with "
              + loaded.io().getClass().getName()
              + ", not the one asked");
    }
    if (filter != null) {
      scan = scan.filter(filter);
    }
    long files = 0;
    try (CloseableIterable<FileScanTask> tasks = scan.planFiles()) {
      for (FileScanTask ignored : tasks) {
        files++;
      }
    }
    if (files != expectedFiles) {
      throw new IllegalStateException(
          "Planned " + files + " files of " + table + ", expected " + expectedFiles);
    }
    return 0;
  }

  @Override
  public synchronized void close() throws IOException {
    for (RESTCatalog catalog : catalogs) {
      catalog.close();
    }
    catalogs.clear();
  }
}
