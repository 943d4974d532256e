package dev.sluice.bench.catalog;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;

/** The request bodies of the Iceberg REST calls the benchmark makes, as the spec spells them. */
public final class TableBodies {
  private TableBodies() {}

  public static byte[] createNamespace(String namespace) {
    ObjectNode body = Json.MAPPER.createObjectNode();
    body.putArray("namespace").add(namespace);
    body.putObject("properties");
    return Json.bytes(body);
  }

  /** A format-version 2 table with one required long column, unpartitioned and unsorted. */
  public static byte[] createTable(String name) {
    ObjectNode body = Json.MAPPER.createObjectNode();
    body.put("name", name);
    ObjectNode schema = body.putObject("schema");
    schema.put("type", "struct").put("schema-id", 0);
    schema
        .putArray("fields")
        .addObject()
        .put("id", 1)
        .put("name", "id")
        .put("required", true)
        .put("type", "long");
    body.putObject("properties").put("format-version", "2");
    return Json.bytes(body);
  }

  /**
   * An append as an engine commits it: the new snapshot (its manifest list under the table's
   * location; no server reads it) made the head of {@code main}, on the condition that {@code main}
   * is still where the writer last saw it ({@code parentId}; null: no snapshot yet).
   */
  public static byte[] append(TableState base, long snapshotId, long timestampMillis) {
    return appends(base, new long[] {snapshotId}, timestampMillis);
  }

  /**
   * Several appends in one commit request, each as {@link #append} writes it (add-snapshot, then
   * set-snapshot-ref of {@code main} to it, so each lands in the snapshot log as if committed
   * alone), under one condition on {@code main}: how the history phase grows a table quickly. The
   * REST spec lets a commit carry any number of updates, and both servers apply them in order.
   */
  public static byte[] appends(TableState base, long[] snapshotIds, long timestampMillis) {
    ObjectNode body = Json.MAPPER.createObjectNode();
    ObjectNode requirement =
        body.putArray("requirements")
            .addObject()
            .put("type", "assert-ref-snapshot-id")
            .put("ref", "main");
    if (base.currentSnapshotId() == null) {
      requirement.putNull("snapshot-id");
    } else {
      requirement.put("snapshot-id", base.currentSnapshotId());
    }
    ArrayNode updates = body.putArray("updates");
    TableState state = base;
    for (long snapshotId : snapshotIds) {
      addSnapshot(updates, state, snapshotId, timestampMillis);
      updates
          .addObject()
          .put("action", "set-snapshot-ref")
          .put("ref-name", "main")
          .put("type", "branch")
          .put("snapshot-id", snapshotId);
      state = state.after(snapshotId);
    }
    return Json.bytes(body);
  }

  private static void addSnapshot(
      ArrayNode updates, TableState base, long snapshotId, long timestampMillis) {
    ObjectNode snapshot = updates.addObject().put("action", "add-snapshot").putObject("snapshot");
    snapshot.put("snapshot-id", snapshotId);
    if (base.currentSnapshotId() != null) {
      snapshot.put("parent-snapshot-id", base.currentSnapshotId());
    }
    snapshot.put("sequence-number", base.lastSequenceNumber() + 1);
    snapshot.put("timestamp-ms", timestampMillis);
    snapshot.put(
        "manifest-list", base.location() + "/metadata/snap-" + snapshotId + "-1-bench.avro");
    snapshot.put("schema-id", 0);
    snapshot
        .putObject("summary")
        .put("operation", "append")
        .put("added-data-files", "1")
        .put("added-records", "1")
        .put("total-data-files", Long.toString(base.lastSequenceNumber() + 1))
        .put("total-records", Long.toString(base.lastSequenceNumber() + 1));
  }
}
