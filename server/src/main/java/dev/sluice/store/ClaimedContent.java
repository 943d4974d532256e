package dev.sluice.store;

import static java.util.Objects.requireNonNull;

import java.util.List;

/**
 * A table or view with the location keys it claims under some prefixes (see {@link
 * Store#contentsClaimingUnder}); keys end in {@code /}, as {@code StorageLocation.key()} makes
 * them.
 */
public record ClaimedContent(NamespacePath namespace, String name, List<String> locationKeys) {
  public ClaimedContent {
    requireNonNull(namespace, "namespace");
    requireNonNull(name, "name");
    locationKeys = List.copyOf(locationKeys);
    if (locationKeys.isEmpty()) {
      throw new IllegalArgumentException("A claimed content needs at least one location: " + name);
    }
  }
}
