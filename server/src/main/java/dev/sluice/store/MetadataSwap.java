package dev.sluice.store;

import static java.util.Objects.requireNonNull;

/** One compare-and-set of a metadata pointer: from {@code expected} to {@code next}. */
public record MetadataSwap(NamespacePath namespace, String name, ContentKind kind, String expected, String next) {
  public MetadataSwap {
    requireNonNull(namespace, "namespace");
    requireNonNull(name, "name");
    requireNonNull(kind, "kind");
    requireNonNull(expected, "expected");
    requireNonNull(next, "next");
  }
}
