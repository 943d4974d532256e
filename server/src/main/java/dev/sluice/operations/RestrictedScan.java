package dev.sluice.operations;

import dev.sluice.catalog.ScanPlanner;
import dev.sluice.catalog.TableRestriction;
import java.util.List;
import org.apache.iceberg.Schema;
import org.apache.iceberg.Table;
import org.apache.iceberg.exceptions.ForbiddenException;
import org.apache.iceberg.rest.requests.PlanTableScanRequest;
import org.apache.iceberg.util.SnapshotUtil;

/**
 * A scan plan of a caller under a read restriction: its row filter AND-ed into the scan, the
 * projection without hidden columns (every visible column when the request names none; a hidden one
 * named is a 403), and statistics only of visible columns (a hidden one named is a 403).
 */
final class RestrictedScan {
  private RestrictedScan() {}

  static ScanPlanner.Prepared prepare(
      Table table, PlanTableScanRequest request, TableRestriction restriction) {
    Schema schema =
        request.snapshotId() != null
                && request.useSnapshotSchema()
                && table.snapshot(request.snapshotId()) != null
            ? SnapshotUtil.schemaFor(table, request.snapshotId())
            : table.schema();
    List<String> select;
    List<String> stats = request.statsFields();
    try {
      select = restriction.checkProjection(schema, request.select());
      if (stats != null && !stats.isEmpty()) {
        stats = restriction.checkProjection(schema, stats);
      }
    } catch (IllegalArgumentException e) {
      throw new ForbiddenException("Cannot plan a scan of %s: %s", table.name(), e.getMessage());
    }
    PlanTableScanRequest restricted =
        PlanTableScanRequest.builder()
            .withSnapshotId(request.snapshotId())
            .withStartSnapshotId(request.startSnapshotId())
            .withEndSnapshotId(request.endSnapshotId())
            .withSelect(select)
            .withFilter(request.filter())
            .withCaseSensitive(request.caseSensitive())
            .withUseSnapshotSchema(request.useSnapshotSchema())
            .withStatsFields(stats)
            .build();
    return ScanPlanner.prepare(table, restricted, restriction.rowFilter());
  }
}
