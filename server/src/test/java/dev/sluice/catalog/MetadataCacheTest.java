package dev.sluice.catalog;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.apache.iceberg.PartitionSpec;
import org.apache.iceberg.Schema;
import org.apache.iceberg.Snapshot;
import org.apache.iceberg.SnapshotParser;
import org.apache.iceberg.SnapshotRef;
import org.apache.iceberg.SortOrder;
import org.apache.iceberg.TableMetadata;
import org.apache.iceberg.TableMetadataParser;
import org.apache.iceberg.catalog.TableIdentifier;
import org.apache.iceberg.inmemory.InMemoryFileIO;
import org.apache.iceberg.types.Types;
import org.junit.jupiter.api.Test;

/**
 * What a commit keeps in the cache must be what reading its file back gives: the metadata of the
 * next load and of the commit's own answer come from it.
 */
class MetadataCacheTest {
  private static final Schema SCHEMA =
      new Schema(Types.NestedField.required(1, "id", Types.LongType.get()));

  private static final MetadataCache.TableKey TABLE =
      new MetadataCache.TableKey("cat", TableIdentifier.of("ns", "t"));

  private final MetadataCache cache = new MetadataCache(10_000, 1 << 20, Duration.ofMinutes(1));

  /**
   * A commit as the server makes it: from the parsed current file, with changes, not yet written.
   */
  private static TableMetadata commit(TableMetadata base, int snapshot, boolean expireOldest) {
    TableMetadata.Builder builder = TableMetadata.buildFrom(base);
    Long parent = base.currentSnapshot() == null ? null : base.currentSnapshot().snapshotId();
    Snapshot next =
        SnapshotParser.fromJson(
            "{\"snapshot-id\": "
                + (1000L + snapshot)
                + (parent == null ? "" : ", \"parent-snapshot-id\": " + parent)
                + ", \"sequence-number\": "
                + (base.lastSequenceNumber() + 1)
                + ", \"timestamp-ms\": "
                + (System.currentTimeMillis() + snapshot)
                + ", \"summary\": {\"operation\": \"append\", \"added-records\": \"1\"}"
                + ", \"manifest-list\": \"file:/w/t/metadata/snap-"
                + snapshot
                + ".avro\", \"schema-id\": 0}");
    builder
        .addSnapshot(next)
        .setRef(SnapshotRef.MAIN_BRANCH, SnapshotRef.branchBuilder(next.snapshotId()).build());
    builder.setProperties(Map.of("commit", Integer.toString(snapshot)));
    if (expireOldest && base.snapshots().size() > 2) {
      builder.removeSnapshots(List.of(base.snapshots().get(0)));
    }
    return builder.build();
  }

  private static String file(int version) {
    return "file:/w/t/metadata/0000" + version + "-x.metadata.json";
  }

  @Test
  void rememberedMetadataIsWhatTheFileReadsBackAs() {
    TableMetadata created =
        TableMetadata.newTableMetadata(
            SCHEMA, PartitionSpec.unpartitioned(), SortOrder.unsorted(), "file:/w/t", Map.of());
    TableMetadata current =
        TableMetadataParser.fromJson(file(0), TableMetadataParser.toJson(created));
    List<String> checked = new ArrayList<>();
    for (int i = 1; i <= 6; i++) {
      TableMetadata written = commit(current, i, i >= 5);
      assertThat(written.changes()).isNotEmpty();
      String location = file(i);
      // What the file holds: the JSON Iceberg writes for the new metadata.
      TableMetadata readBack =
          TableMetadataParser.fromJson(location, TableMetadataParser.toJson(written));

      cache.remember(TABLE, location, written, null);
      TableMetadata remembered = cache.cached(TABLE, location);

      assertThat(remembered.metadataFileLocation()).isEqualTo(location);
      assertThat(remembered.changes()).isEmpty();
      assertThat(TableMetadataParser.toJson(remembered))
          .isEqualTo(TableMetadataParser.toJson(readBack));
      assertThat(remembered.previousFiles()).hasSize(i);
      assertThat(remembered.snapshotLog()).isEqualTo(readBack.snapshotLog());
      checked.add(location);
      current = remembered;
    }
    // Expiry (commits 5 and 6) removed snapshots: the log was rewritten, and still matches.
    assertThat(current.snapshots()).hasSizeLessThan(6);
    assertThat(checked).hasSize(6);
  }

  /**
   * The file a commit writes is kept as it was written, and it is byte for byte the JSON a load of
   * that file would serialize: the commit's answer embeds it instead of serializing again.
   */
  @Test
  void theWrittenFileIsTheJsonOfTheRememberedMetadata() throws Exception {
    TableMetadata created =
        TableMetadata.newTableMetadata(
            SCHEMA, PartitionSpec.unpartitioned(), SortOrder.unsorted(), "file:/w/t", Map.of());
    TableMetadata current =
        TableMetadataParser.fromJson(file(0), TableMetadataParser.toJson(created));
    try (InMemoryFileIO files = new InMemoryFileIO()) {
      for (int i = 1; i <= 4; i++) {
        TableMetadata written = commit(current, i, false);
        String location = file(i);
        MetadataFileCapture capture = new MetadataFileCapture(files);
        TableMetadataParser.overwrite(written, capture.newOutputFile(location));
        byte[] json = capture.written(location);
        assertThat(json).isNotNull();
        try (InputStream in = files.newInputFile(location).newStream()) {
          assertThat(json).isEqualTo(in.readAllBytes());
        }
        assertThat(capture.written(file(99))).isNull();

        cache.remember(TABLE, location, written, json);
        TableMetadata remembered = cache.cached(TABLE, location);
        assertThat(new String(cache.takeWrittenJson(location), StandardCharsets.UTF_8))
            .isEqualTo(TableMetadataParser.toJson(remembered));
        current = remembered;
      }
      // A gzipped metadata file is not plain JSON: it is written, not kept.
      String gz = "file:/w/t/metadata/00009-x.gz.metadata.json";
      MetadataFileCapture capture = new MetadataFileCapture(files);
      TableMetadataParser.overwrite(current, capture.newOutputFile(gz));
      assertThat(files.newInputFile(gz).exists()).isTrue();
      assertThat(capture.written(gz)).isNull();
    }
  }

  @Test
  void boundedByWeightNotByEntries() {
    MetadataCache small = new MetadataCache(50, 100, Duration.ofMinutes(1));
    MetadataCache.TableKey other = new MetadataCache.TableKey("cat", TableIdentifier.of("ns", "u"));
    TableMetadata current =
        TableMetadata.newTableMetadata(
            SCHEMA, PartitionSpec.unpartitioned(), SortOrder.unsorted(), "file:/w/t", Map.of());
    small.remember(other, file(0), current, new byte[10]);
    for (int i = 1; i <= 60; i++) {
      current = commit(current, i, false);
    }
    assertThat(MetadataCache.weight(current)).isEqualTo(61);
    small.remember(TABLE, file(60), current, new byte[200]);

    // One entry, but heavier than the whole bound: not kept, nor its JSON.
    assertThat(small.cached(TABLE, file(60))).isNull();
    assertThat(small.takeWrittenJson(file(60))).isNull();
    assertThat(small.cached(other, file(0))).isNotNull();
    assertThat(small.takeWrittenJson(file(0))).hasSize(10);
  }

  /**
   * Every commit writes a new location. Keyed by location, a frequency-based cache refused most new
   * versions once full (174 of 300 at 2,000 snapshots), and the next commit parsed the file.
   */
  @Test
  void eachNewVersionOfAHeavyTableIsKeptOnceTheCacheIsFull() {
    MetadataCache bounded = new MetadataCache(131_000, 8 << 20, Duration.ofMinutes(10));
    TableMetadata current =
        TableMetadata.newTableMetadata(
            SCHEMA, PartitionSpec.unpartitioned(), SortOrder.unsorted(), "file:/w/t", Map.of());
    for (int i = 1; i <= 2000; i++) {
      current = commit(current, i, false);
    }
    // Other tables' heavy versions fill the cache first.
    for (int t = 0; t < 100; t++) {
      bounded.remember(
          new MetadataCache.TableKey("cat", TableIdentifier.of("ns", "o" + t)),
          "file:/w/o" + t + "/v1.metadata.json",
          current,
          null);
    }
    List<String> refused = new ArrayList<>();
    for (int i = 2001; i <= 2300; i++) {
      current = commit(current, i, false);
      // About the size of the file at 2,000 snapshots; 8 MB holds thirteen.
      bounded.remember(TABLE, file(i), current, new byte[600_000]);
      if (bounded.cached(TABLE, file(i)) == null) {
        refused.add(file(i));
      }
      if (bounded.takeWrittenJson(file(i)) == null) {
        refused.add(file(i) + " (JSON)");
      }
      assertThat(bounded.takeWrittenJson(file(i))).as("taken once").isNull();
    }
    assertThat(refused).isEmpty();
  }
}
