package dev.sluice.vending.file;

import dev.sluice.io.LocalFileIO;
import dev.sluice.location.LocationPolicy;
import dev.sluice.vending.CredentialSource;
import dev.sluice.vending.CredentialSourceType;
import dev.sluice.vending.CredentialVendor;
import dev.sluice.vending.StorageBackend;
import dev.sluice.vending.VendorMetrics;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import org.apache.iceberg.io.FileIO;

/** Local files: no vending; the catalog's FileIO refuses paths outside allowedLocations. */
public final class FileBackend implements StorageBackend<FileStorageProfile> {
  static final String TYPE = "FILE";

  @Override
  public String storageType() {
    return TYPE;
  }

  @Override
  public Class<FileStorageProfile> profileType() {
    return FileStorageProfile.class;
  }

  @Override
  public Set<String> schemes() {
    return Set.of("file");
  }

  @Override
  public List<CredentialSourceType> credentialSourceTypes() {
    return List.of();
  }

  @Override
  public FileStorageProfile parse(Input input) {
    return new FileStorageProfile(input.catalog(), input.allowedLocations());
  }

  @Override
  public Optional<CredentialVendor> openVendor(
      FileStorageProfile profile, CredentialSource source, VendorMetrics metrics) {
    return Optional.empty();
  }

  @Override
  public FileIO openCatalogIO(FileStorageProfile profile, CredentialSource source) {
    return new LocalFileIO(
        new LocationPolicy(profile.catalog(), profile.allowedLocations()).allowed());
  }
}
