package dev.sluice.vending;

import static java.util.Objects.requireNonNull;

import dev.sluice.location.StorageLocation;

/**
 * Two spellings of one place in a backend's storage, as a backend declares them ({@link
 * StorageBackend#sameStorage}): a credential for either reaches the same objects (S3's {@code
 * s3a://} for {@code s3://}, Azure's Blob endpoint for its DFS one). The location key folds them
 * into one ({@link StorageLocation#key}), or two tables could overlap unseen and each be vended a
 * credential for the other's files; {@link StorageBackends} refuses at boot a backend whose
 * spellings the key tells apart.
 */
public record SameStorage(String location, String sameAs) {
  public SameStorage {
    requireNonNull(location, "location");
    requireNonNull(sameAs, "sameAs");
  }

  /** True when the location key takes both spellings for one place. */
  public boolean keyedAsOne() {
    return StorageLocation.parse(location).key().equals(StorageLocation.parse(sameAs).key());
  }
}
