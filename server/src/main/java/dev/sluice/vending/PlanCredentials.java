package dev.sluice.vending;

import static java.util.Objects.requireNonNull;

import java.util.List;

/**
 * A scan plan's read credentials and what they cover; no credentials when the catalog vends none.
 */
public record PlanCredentials(List<StorageCredential> credentials, FileScope scope) {
  public PlanCredentials {
    credentials = List.copyOf(credentials);
    requireNonNull(scope, "scope");
  }
}
