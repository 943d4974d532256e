package dev.sluice.management;

import static java.util.Objects.requireNonNull;

import dev.sluice.catalog.CatalogRegistry;
import dev.sluice.catalog.CatalogSettings;
import dev.sluice.catalog.SluiceCatalog;
import dev.sluice.location.StorageLocation;
import dev.sluice.vending.StorageBackends;
import dev.sluice.vending.StoreProbes;
import dev.sluice.vending.VendingService;
import dev.sluice.vending.verify.StorageVerifier;
import dev.sluice.vending.verify.VerifyReport;
import java.util.Optional;
import org.apache.iceberg.exceptions.BadRequestException;
import org.apache.iceberg.exceptions.UnprocessableEntityException;

/**
 * Runs the storage self-check on a catalog: its profile, base location and own FileIO from the
 * registry, its vendor (or its signer's scoped identity) from the vending service. Refuses (422) a
 * catalog whose backend has no self-check yet or that neither vends nor signs, since there is
 * nothing the check could prove.
 */
public final class CatalogVerification {
  private final CatalogRegistry catalogs;
  private final VendingService vending;
  private final StorageBackends backends;
  private final int minLifetimeSeconds;

  public CatalogVerification(
      CatalogRegistry catalogs,
      VendingService vending,
      StorageBackends backends,
      int minLifetimeSeconds) {
    this.catalogs = requireNonNull(catalogs, "catalogs");
    this.vending = requireNonNull(vending, "vending");
    this.backends = requireNonNull(backends, "backends");
    this.minLifetimeSeconds = minLifetimeSeconds;
  }

  /**
   * Checks catalog {@code name} as {@code principal}; {@code otherLocation}, when given, is a
   * location in another bucket (of the catalog's storage type) that both credentials must be
   * refused on.
   */
  public VerifyReport verify(String name, String principal, Optional<String> otherLocation) {
    SluiceCatalog catalog = catalogs.resolve(name);
    CatalogSettings settings = catalog.settings();
    StoreProbes probes =
        backends
            .probes(settings.storage())
            .orElseThrow(
                () ->
                    new UnprocessableEntityException(
                        "The storage self-check is not available for storageType %s (catalog %s)",
                        settings.storageType(), name));
    if (settings.storage().offered().isEmpty()) {
      throw new UnprocessableEntityException(
          "Catalog %s neither vends credentials nor signs requests"
              + " (storageConfigInfo.delegation): the storage self-check proves what the store"
              + " lets those do",
          name);
    }
    otherLocation.ifPresent(location -> checkOther(settings, location));
    String base = settings.defaultBaseLocation();
    if (base == null) {
      base = settings.allowedLocations().get(0);
    }
    return new StorageVerifier(vending, probes)
        .verify(
            new StorageVerifier.Target(
                settings.storage(),
                settings.locationPolicy(),
                base,
                catalog.io(),
                principal,
                otherLocation,
                minLifetimeSeconds));
  }

  private static void checkOther(CatalogSettings settings, String location) {
    StorageLocation parsed;
    try {
      parsed = StorageLocation.parse(location);
    } catch (IllegalArgumentException e) {
      throw new BadRequestException("Invalid otherLocation: %s", e.getMessage());
    }
    for (String allowed : settings.allowedLocations()) {
      StorageLocation root = StorageLocation.parse(allowed);
      // Storage roots compare as keys: another spelling of the catalog's bucket is not another.
      if (root.rootKey().equals(parsed.rootKey())) {
        throw new BadRequestException(
            "Invalid otherLocation %s: it must be in another bucket than the catalog's allowed"
                + " location %s",
            location, allowed);
      }
    }
  }
}
