package dev.sluice.store;

import static java.util.Objects.requireNonNull;

import java.util.List;

/**
 * One compare-and-set of a metadata pointer: from {@code expected} to {@code next}. When {@code
 * claims} is not null the table's location claims are replaced by it in the same transaction (its
 * locations changed); null leaves them as they are.
 */
public record MetadataSwap(
    NamespacePath namespace,
    String name,
    ContentKind kind,
    String expected,
    String next,
    List<LocationClaim> claims) {
  public MetadataSwap {
    requireNonNull(namespace, "namespace");
    requireNonNull(name, "name");
    requireNonNull(kind, "kind");
    requireNonNull(expected, "expected");
    requireNonNull(next, "next");
    claims = claims == null ? null : List.copyOf(claims);
  }

  public MetadataSwap(
      NamespacePath namespace, String name, ContentKind kind, String expected, String next) {
    this(namespace, name, kind, expected, next, null);
  }
}
