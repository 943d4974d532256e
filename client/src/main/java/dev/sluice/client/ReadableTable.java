package dev.sluice.client;

import static java.util.Objects.requireNonNull;

import java.util.List;

/**
 * A table the caller may read, with its storage locations ({@code s3://bucket/key} URIs: the table
 * location and any other data or metadata location the table uses), as Sluice's {@code
 * readable-table-locations} endpoint lists them.
 */
public record ReadableTable(TableRef table, List<String> locations) {
  public ReadableTable {
    requireNonNull(table, "table");
    locations = List.copyOf(requireNonNull(locations, "locations"));
  }
}
