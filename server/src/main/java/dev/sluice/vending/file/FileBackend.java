package dev.sluice.vending.file;

import com.fasterxml.jackson.core.JacksonException;
import dev.sluice.io.LocalFileIO;
import dev.sluice.location.LocationPolicy;
import dev.sluice.vending.CredentialSource;
import dev.sluice.vending.CredentialSourceType;
import dev.sluice.vending.CredentialVendor;
import dev.sluice.vending.StorageBackend;
import dev.sluice.vending.StorageTimeouts;
import dev.sluice.vending.VendorMetrics;
import java.io.IOException;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import org.apache.iceberg.io.FileIO;

/** Local files: no vending; the catalog's FileIO refuses paths outside allowedLocations. */
public final class FileBackend implements StorageBackend<FileStorageProfile> {
  static final String TYPE = "FILE";

  @Override
  public Set<String> configKeys() {
    return Set.of();
  }

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

  /**
   * The local file system failing the catalog's own FileIO (a full disk, a read-only mount,
   * permissions), as {@link LocalFileIO} and Iceberg wrap it; not a JSON parse error, which is an
   * {@code IOException} too but a bad file, not a failing disk.
   */
  @Override
  public boolean isStorageFailure(Throwable error) {
    return error instanceof IOException && !(error instanceof JacksonException);
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
      FileStorageProfile profile,
      CredentialSource source,
      VendorMetrics metrics,
      StorageTimeouts.Provider timeouts) {
    return Optional.empty();
  }

  @Override
  public FileIO openCatalogIO(
      FileStorageProfile profile, CredentialSource source, StorageTimeouts.CatalogIo timeouts) {
    return new LocalFileIO(
        new LocationPolicy(profile.catalog(), profile.allowedLocations()).allowed());
  }
}
