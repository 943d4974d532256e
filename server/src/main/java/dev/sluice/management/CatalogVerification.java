package dev.sluice.management;

import static java.util.Objects.requireNonNull;

import dev.sluice.catalog.CatalogRegistry;
import dev.sluice.catalog.CatalogSettings;
import dev.sluice.catalog.NamespaceStorage;
import dev.sluice.catalog.SluiceCatalog;
import dev.sluice.location.StorageLocation;
import dev.sluice.vending.StorageBackends;
import dev.sluice.vending.StoreProbes;
import dev.sluice.vending.VendingService;
import dev.sluice.vending.verify.Check;
import dev.sluice.vending.verify.StorageVerifier;
import dev.sluice.vending.verify.VerifyReport;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.apache.iceberg.catalog.Namespace;
import org.apache.iceberg.exceptions.BadRequestException;
import org.apache.iceberg.exceptions.UnprocessableEntityException;

/**
 * Runs the storage self-check on a catalog: its profile, base location and own FileIO from the
 * registry, its vendor (or its signer's scoped identity) from the vending service; then again for
 * each namespace storage identity, under its namespace's location, reported per identity. Refuses
 * (422) a catalog whose backend has no self-check yet or that neither vends nor signs, since there
 * is nothing the check could prove.
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
    StorageVerifier verifier = new StorageVerifier(vending, probes);
    VerifyReport report =
        verifier.verify(
            new StorageVerifier.Target(
                settings.storage(),
                settings.locationPolicy(),
                base,
                catalog.io(),
                principal,
                otherLocation,
                minLifetimeSeconds));
    return report.withIdentities(identities(catalog, verifier, principal, otherLocation));
  }

  /**
   * One report per namespace storage identity, each probing under its namespace's location with the
   * profile that vends as it: the identity's own role must be as narrow as the catalog's.
   */
  private List<VerifyReport.IdentityReport> identities(
      SluiceCatalog catalog,
      StorageVerifier verifier,
      String principal,
      Optional<String> otherLocation) {
    CatalogSettings settings = catalog.settings();
    NamespaceStorage storage = catalog.namespaceStorage();
    List<VerifyReport.IdentityReport> out = new ArrayList<>();
    storage
        .identities()
        .forEach(
            (path, profile) -> {
              VerifyReport report;
              if (profile == null) {
                report =
                    new VerifyReport(
                        settings.name(),
                        settings.storageType(),
                        "",
                        List.of(
                            Check.failed(
                                "the namespace's storage identity vends",
                                Check.Expect.ALLOWED,
                                "unusable",
                                storage.unusable(path))),
                        "nothing to clean up");
              } else {
                report =
                    verifier.verifyIdentity(
                        new StorageVerifier.Target(
                            profile,
                            settings.locationPolicy(),
                            catalog.namespaceLocation(
                                Namespace.of(path.levels().toArray(String[]::new))),
                            catalog.io(),
                            principal,
                            otherLocation,
                            minLifetimeSeconds));
              }
              out.add(new VerifyReport.IdentityReport(path.levels(), report));
            });
    return out;
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
