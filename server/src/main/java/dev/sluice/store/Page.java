package dev.sluice.store;

import java.util.List;

/** One page of a listing; {@code nextToken} is null on the last page. */
public record Page<T>(List<T> items, String nextToken) {
  public Page {
    // Not List.copyOf: Iceberg response builders call contains(null), which it rejects.
    items = java.util.Collections.unmodifiableList(new java.util.ArrayList<>(items));
  }
}
