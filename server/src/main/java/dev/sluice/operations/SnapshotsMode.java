package dev.sluice.operations;

import java.util.Locale;
import org.apache.iceberg.TableMetadata;
import org.apache.iceberg.exceptions.BadRequestException;

/**
 * The {@code snapshots} query parameter of loadTable: {@code all} (the default) returns every
 * snapshot of the table's metadata, {@code refs} only those a branch or tag (among them {@code
 * main}) points to. A client in refs mode (Iceberg's {@code snapshot-loading-mode=refs}) loads the
 * rest lazily, with a second load in {@code all} mode, when it first needs them.
 */
public enum SnapshotsMode {
  ALL,
  REFS;

  /** The mode a query value asks for; absent means {@code all}, anything else is a 400. */
  public static SnapshotsMode fromQuery(String value) {
    if (value == null) {
      return ALL;
    }
    return switch (value.toLowerCase(Locale.ROOT)) {
      case "all" -> ALL;
      case "refs" -> REFS;
      default ->
          throw new BadRequestException(
              "Invalid snapshots mode: '%s' (expected 'all' or 'refs')", value);
    };
  }

  /** The value as the spec writes it, also what the ETag covers. */
  public String queryValue() {
    return this == ALL ? "all" : "refs";
  }

  /**
   * {@code metadata} as this mode returns it. Refs mode is Iceberg's own {@code
   * suppressHistoricalSnapshots} (what its CatalogHandlers does from 1.11): the metadata keeps its
   * file location and timestamp, the suppressed snapshots' statistics go with them, and no change
   * is recorded (the suppression removes nothing from the table).
   */
  public TableMetadata apply(TableMetadata metadata) {
    if (this == ALL) {
      return metadata;
    }
    return TableMetadata.buildFrom(metadata)
        .withMetadataLocation(metadata.metadataFileLocation())
        .suppressHistoricalSnapshots()
        .discardChanges()
        .build();
  }
}
