package dev.sluice.catalog;

import static java.util.Objects.requireNonNull;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CancellationException;
import java.util.function.BooleanSupplier;
import org.apache.iceberg.ContentFile;
import org.apache.iceberg.FileScanTask;
import org.apache.iceberg.PartitionSpec;
import org.apache.iceberg.Scan;
import org.apache.iceberg.Snapshot;
import org.apache.iceberg.SnapshotSummary;
import org.apache.iceberg.Table;
import org.apache.iceberg.TableScan;
import org.apache.iceberg.exceptions.BadRequestException;
import org.apache.iceberg.expressions.Binder;
import org.apache.iceberg.expressions.Expression;
import org.apache.iceberg.expressions.Expressions;
import org.apache.iceberg.expressions.ResidualEvaluator;
import org.apache.iceberg.io.CloseableIterable;
import org.apache.iceberg.io.CloseableIterator;
import org.apache.iceberg.rest.requests.PlanTableScanRequest;

/**
 * Plans one table scan with iceberg-core's own scans ({@code Table.newScan}, {@code
 * newIncrementalAppendScan}): the request's snapshot or snapshot range, filter, projection and
 * statistics, AND-ed with a row filter the caller is held to. Within a {@link Budget}: a plan that
 * lists too many files, outlives its deadline or is cancelled stops reading manifests at once.
 */
public final class ScanPlanner {
  private ScanPlanner() {}

  /** What one plan may spend; {@code cancelled} is polled between files. */
  public record Budget(int maxFiles, long deadlineNanos, BooleanSupplier cancelled) {
    public Budget {
      if (maxFiles < 1) {
        throw new IllegalArgumentException("maxFiles must be positive: " + maxFiles);
      }
      requireNonNull(cancelled, "cancelled");
    }
  }

  /** A plan over its budget: too many files or too long. */
  public static final class OverBudgetException extends RuntimeException {
    public OverBudgetException(String message) {
      super(message);
    }
  }

  /**
   * The planned tasks, the table's partition specs (to write them), every file they read (data and
   * delete files, in order), and whether the row filter was decided by partition values alone: then
   * no returned file holds a row it excludes.
   */
  public record Planned(
      List<FileScanTask> tasks,
      Map<Integer, PartitionSpec> specs,
      Set<String> files,
      boolean rowFilterByPartition) {
    public Planned {
      tasks = List.copyOf(tasks);
      specs = Map.copyOf(specs);
      files = Set.copyOf(files);
    }
  }

  /**
   * A scan checked and configured in the request's own thread, so that a bad request is a 400
   * before anything is planned: its snapshots exist, its projection and filters bind.
   */
  public record Prepared(
      String table, Scan<?, FileScanTask, ?> scan, Expression rowFilter, boolean caseSensitive) {
    public Prepared {
      requireNonNull(table, "table");
      requireNonNull(scan, "scan");
      requireNonNull(rowFilter, "rowFilter");
    }
  }

  /**
   * {@code request} on {@code table}, held to {@code rowFilter} ({@link Expressions#alwaysTrue()}
   * for none). Bad requests (an unknown snapshot or column, a filter that does not bind) are a
   * {@link BadRequestException}.
   */
  public static Prepared prepare(Table table, PlanTableScanRequest request, Expression rowFilter) {
    requireNonNull(rowFilter, "rowFilter");
    Scan<?, FileScanTask, ?> scan = scan(table, request, rowFilter);
    try {
      // Resolves the projection and binds the filters now, not on the planning thread.
      Binder.bind(scan.schema().asStruct(), scan.filter(), request.caseSensitive());
      if (request.select() != null) {
        for (String column : request.select()) {
          if ((request.caseSensitive()
                  ? scan.schema().findField(column)
                  : scan.schema().caseInsensitiveFindField(column))
              == null) {
            throw new IllegalArgumentException("no column " + column);
          }
        }
      }
    } catch (IllegalArgumentException | org.apache.iceberg.exceptions.ValidationException e) {
      throw new BadRequestException("Invalid scan of %s: %s", table.name(), e.getMessage());
    }
    return new Prepared(table.name(), scan, rowFilter, request.caseSensitive());
  }

  /** Plans a prepared scan within {@code budget}. */
  public static Planned plan(Table table, Prepared prepared, Budget budget) {
    Expression rowFilter = prepared.rowFilter();
    List<FileScanTask> tasks = new ArrayList<>();
    Set<String> files = new LinkedHashSet<>();
    boolean byPartition = true;
    boolean filtered = rowFilter.op() != Expression.Operation.TRUE;
    try (CloseableIterable<FileScanTask> planned = prepared.scan().planFiles();
        CloseableIterator<FileScanTask> it = planned.iterator()) {
      while (it.hasNext()) {
        FileScanTask task = it.next();
        if (budget.cancelled().getAsBoolean() || Thread.currentThread().isInterrupted()) {
          throw new CancellationException("the plan was cancelled");
        }
        if (tasks.size() >= budget.maxFiles()) {
          throw new OverBudgetException(
              "the scan reads more than "
                  + budget.maxFiles()
                  + " files (server.scanPlanning.maxFiles): narrow its filter");
        }
        if (System.nanoTime() - budget.deadlineNanos() > 0) {
          throw new OverBudgetException(
              "planning took longer than the server allows (server.scanPlanning.timeout)");
        }
        tasks.add(task);
        files.add(task.file().location());
        for (ContentFile<?> delete : task.deletes()) {
          files.add(delete.location());
        }
        if (filtered && byPartition) {
          byPartition = decidedByPartition(task, rowFilter, prepared.caseSensitive());
        }
      }
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    return new Planned(tasks, table.specs(), files, filtered && byPartition);
  }

  /**
   * How many files the snapshot a request scans holds (its summary's data and delete files), an
   * upper bound of what its plan returns; 0 for an empty table or a snapshot without a summary.
   */
  public static long filesIn(Table table, PlanTableScanRequest request) {
    Long id =
        request.endSnapshotId() != null
            ? request.endSnapshotId()
            : request.snapshotId() != null
                ? request.snapshotId()
                : table.currentSnapshot() == null ? null : table.currentSnapshot().snapshotId();
    Snapshot snapshot = id == null ? null : table.snapshot(id);
    if (snapshot == null || snapshot.summary() == null) {
      return 0;
    }
    return count(snapshot.summary(), SnapshotSummary.TOTAL_DATA_FILES_PROP)
        + count(snapshot.summary(), SnapshotSummary.TOTAL_DELETE_FILES_PROP);
  }

  private static long count(Map<String, String> summary, String key) {
    try {
      return Long.parseLong(summary.getOrDefault(key, "0"));
    } catch (NumberFormatException e) {
      return 0;
    }
  }

  /** True when the partition's values alone decide the row filter for every row of the task. */
  private static boolean decidedByPartition(
      FileScanTask task, Expression rowFilter, boolean caseSensitive) {
    Expression residual =
        ResidualEvaluator.of(task.spec(), rowFilter, caseSensitive)
            .residualFor(task.file().partition());
    return residual.op() == Expression.Operation.TRUE;
  }

  /** The configured scan: snapshot or incremental range, filters, projection, statistics. */
  static Scan<?, FileScanTask, ?> scan(
      Table table, PlanTableScanRequest request, Expression rowFilter) {
    try {
      request.validate();
      if (request.startSnapshotId() != null) {
        requireSnapshot(table, request.startSnapshotId());
        requireSnapshot(table, request.endSnapshotId());
        // The spec's start-snapshot-id is exclusive: the changes after it, up to the end.
        return configure(
            table
                .newIncrementalAppendScan()
                .fromSnapshotExclusive(request.startSnapshotId())
                .toSnapshot(request.endSnapshotId()),
            request,
            rowFilter);
      }
      TableScan scan = table.newScan();
      if (request.snapshotId() != null) {
        requireSnapshot(table, request.snapshotId());
        scan = scan.useSnapshot(request.snapshotId());
        if (!request.useSnapshotSchema()) {
          // Names resolve against the table's current schema unless asked otherwise.
          scan = scan.project(table.schema());
        }
      }
      return configure(scan, request, rowFilter);
    } catch (IllegalArgumentException | org.apache.iceberg.exceptions.ValidationException e) {
      throw new BadRequestException("Invalid scan of %s: %s", table.name(), e.getMessage());
    }
  }

  private static <T extends Scan<T, FileScanTask, ?>> T configure(
      T scan, PlanTableScanRequest request, Expression rowFilter) {
    // First: projection and filters below resolve their names by it.
    T configured = scan.caseSensitive(request.caseSensitive());
    if (request.select() != null && !request.select().isEmpty()) {
      configured = configured.select(request.select());
    }
    if (request.filter() != null) {
      configured = configured.filter(request.filter());
    }
    if (rowFilter.op() != Expression.Operation.TRUE) {
      configured = configured.filter(rowFilter);
    }
    if (request.statsFields() != null && !request.statsFields().isEmpty()) {
      configured = configured.includeColumnStats(request.statsFields());
    }
    return configured;
  }

  private static void requireSnapshot(Table table, long id) {
    if (table.snapshot(id) == null) {
      throw new BadRequestException("Invalid scan of %s: no snapshot %s", table.name(), id);
    }
  }
}
