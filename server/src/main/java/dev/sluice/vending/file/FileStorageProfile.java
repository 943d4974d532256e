package dev.sluice.vending.file;

import static java.util.Objects.requireNonNull;

import dev.sluice.vending.Delegation;
import dev.sluice.vending.StorageProfile;
import java.util.List;
import java.util.Optional;
import java.util.Set;

/**
 * Local files ({@code storageType: FILE}, {@code allowedLocations} of {@code file:} paths): for a
 * single machine and for tests. Nothing is delegated: an engine on the same machine reads the files
 * itself.
 */
public record FileStorageProfile(String catalog, List<String> allowedLocations)
    implements StorageProfile {
  public FileStorageProfile {
    requireNonNull(catalog, "catalog");
    allowedLocations = List.copyOf(allowedLocations);
  }

  @Override
  public String storageType() {
    return FileBackend.TYPE;
  }

  @Override
  public Optional<String> credentialSource() {
    return Optional.empty();
  }

  @Override
  public Set<Delegation.Kind> offered() {
    return Set.of();
  }

  @Override
  public boolean delegateOnlyOnRequest() {
    return false;
  }
}
