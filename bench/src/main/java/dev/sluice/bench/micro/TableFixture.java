package dev.sluice.bench.micro;

import java.nio.charset.StandardCharsets;
import java.util.Locale;
import java.util.Map;
import java.util.UUID;
import org.apache.iceberg.PartitionSpec;
import org.apache.iceberg.Schema;
import org.apache.iceberg.Snapshot;
import org.apache.iceberg.SnapshotParser;
import org.apache.iceberg.SortOrder;
import org.apache.iceberg.TableMetadata;
import org.apache.iceberg.TableMetadataParser;
import org.apache.iceberg.rest.responses.LoadTableResponse;
import org.apache.iceberg.types.Types;

/**
 * A format-v2 table's metadata after {@code snapshots} appends of one data file each, built with
 * Iceberg's TableMetadata builder as a commit builds it: each append adds a snapshot (its summary
 * what Iceberg 1.10's fast append writes), moves {@code main} (snapshot log), and logs the previous
 * metadata file (the metadata log keeps the last 100, Iceberg's default). No files are written: 500
 * commits through Iceberg's InMemoryCatalog took 20 s of setup per fork. Ids and file names derive
 * from the append's number, so both benchmarks' forks serialize documents of the same size; only
 * the timestamps (13 digits, from the clock) differ. The result carries its metadata-file location,
 * as a table loaded from the store does.
 */
final class TableFixture {
  private static final String LOCATION = "s3://sluice-bench/warehouse/bench/t0";
  private static final Schema SCHEMA =
      new Schema(
          Types.NestedField.required(1, "id", Types.LongType.get()),
          Types.NestedField.optional(2, "category", Types.StringType.get()),
          Types.NestedField.optional(3, "amount", Types.DecimalType.of(12, 2)),
          Types.NestedField.optional(4, "ts", Types.TimestampType.withZone()));
  private static final String ICEBERG_VERSION =
      "Apache Iceberg 1.10.0 (commit 2114bf631e49af532d66e2ce148ee49dd1dd1f1f)";

  private TableFixture() {}

  static LoadTableResponse loadTableResponse(int snapshots) {
    TableMetadata metadata =
        written(
            TableMetadata.newTableMetadata(
                SCHEMA,
                PartitionSpec.unpartitioned(),
                SortOrder.unsorted(),
                LOCATION,
                Map.of("format-version", "2", "write.parquet.compression-codec", "zstd")),
            0);
    long start = metadata.lastUpdatedMillis();
    for (int i = 1; i <= snapshots; i++) {
      Snapshot snapshot = SnapshotParser.fromJson(snapshotJson(i, start + i * 1_000L));
      metadata =
          written(TableMetadata.buildFrom(metadata).setBranchSnapshot(snapshot, "main").build(), i);
    }
    // What reading the current metadata file gives: the same document, with its location.
    return LoadTableResponse.builder()
        .withTableMetadata(
            TableMetadataParser.fromJson(
                metadata.metadataFileLocation(), TableMetadataParser.toJson(metadata)))
        .build();
  }

  /**
   * The metadata as if written to its file: located, and without pending changes. Without this the
   * builder carries every earlier append as a change of this commit and drops it from the snapshot
   * log; with it, the next commit logs this file in the metadata log, as a catalog commit does.
   */
  private static TableMetadata written(TableMetadata metadata, int version) {
    return TableMetadata.buildFrom(metadata)
        .discardChanges()
        .withMetadataLocation(metadataFile(version))
        .build();
  }

  private static long snapshotId(int n) {
    return 4_000_000_000_000_000_000L + n * 7_919L; // always 19 digits, like Iceberg's random ids
  }

  private static String snapshotJson(int n, long timestampMs) {
    String parent =
        n == 1 ? "" : String.format(Locale.ROOT, "\"parent-snapshot-id\":%d,", snapshotId(n - 1));
    return String.format(
        Locale.ROOT,
        "{\"sequence-number\":%d,\"snapshot-id\":%d,%s\"timestamp-ms\":%d,\"summary\":{\"operation\":\"append\","
            + "\"added-data-files\":\"1\",\"added-records\":\"100\",\"added-files-size\":\"4096\","
            + "\"changed-partition-count\":\"1\",\"total-records\":\"%d\",\"total-files-size\":\"%d\","
            + "\"total-data-files\":\"%d\",\"total-delete-files\":\"0\",\"total-position-deletes\":\"0\","
            + "\"total-equality-deletes\":\"0\",\"iceberg-version\":\"%s\"},"
            + "\"manifest-list\":\"%s/metadata/snap-%d-1-%s.avro\",\"schema-id\":0}",
        n,
        snapshotId(n),
        parent,
        timestampMs,
        n * 100L,
        n * 4096L,
        n,
        ICEBERG_VERSION,
        LOCATION,
        snapshotId(n),
        uuid("manifest-list-" + n));
  }

  private static String metadataFile(int version) {
    return String.format(
        Locale.ROOT,
        "%s/metadata/%05d-%s.metadata.json",
        LOCATION,
        version,
        uuid("metadata-" + version));
  }

  private static UUID uuid(String seed) {
    return UUID.nameUUIDFromBytes(seed.getBytes(StandardCharsets.UTF_8));
  }
}
