package dev.sluice.federation;

import static java.util.Objects.requireNonNull;

import dev.sluice.catalog.SluiceCatalog;
import java.util.Optional;
import java.util.Set;
import org.apache.iceberg.LocationProviders;
import org.apache.iceberg.TableMetadata;
import org.apache.iceberg.TableOperations;
import org.apache.iceberg.catalog.TableIdentifier;
import org.apache.iceberg.io.FileIO;
import org.apache.iceberg.io.LocationProvider;
import org.apache.iceberg.rest.responses.LoadTableResponse;

/**
 * A federated table as iceberg-core's handlers drive it: its metadata is the remote's answer; a
 * commit's locations pass Sluice's rules ({@link RemoteLocationRules}) before the commit goes to
 * the remote as requirements and updates; the commit of a staged create ({@code base} null, {@link
 * #forCreate}) creates the table there. Sluice never reads or writes a file of it ({@link
 * InertFileIO}).
 */
final class FederatedTableOperations implements TableOperations {
  private static final FileIO NO_FILES = new InertFileIO();

  private final TableIdentifier table;
  private final RemoteTables remote;
  private final RemoteLocationRules rules;
  private final boolean creating;
  private LoadTableResponse answered;

  private FederatedTableOperations(
      TableIdentifier table,
      RemoteTables remote,
      RemoteLocationRules rules,
      LoadTableResponse answered,
      boolean creating) {
    this.table = requireNonNull(table, "table");
    this.remote = requireNonNull(remote, "remote");
    this.rules = requireNonNull(rules, "rules");
    this.answered = answered;
    this.creating = creating;
  }

  /** A table the remote answered with {@code loaded}. */
  static FederatedTableOperations loaded(
      TableIdentifier table,
      RemoteTables remote,
      RemoteLocationRules rules,
      LoadTableResponse loaded) {
    return new FederatedTableOperations(
        table, remote, rules, requireNonNull(loaded, "loaded"), false);
  }

  /** A table to be created by the commit of its staged create. */
  static FederatedTableOperations forCreate(
      TableIdentifier table, RemoteTables remote, RemoteLocationRules rules) {
    return new FederatedTableOperations(table, remote, rules, null, true);
  }

  /** The remote's last answer about the table (its config and storage credentials included). */
  Optional<LoadTableResponse> answered() {
    return Optional.ofNullable(answered);
  }

  @Override
  public TableMetadata current() {
    return answered == null ? null : answered.tableMetadata();
  }

  @Override
  public TableMetadata refresh() {
    answered = remote.load(table);
    return current();
  }

  @Override
  public void commit(TableMetadata base, TableMetadata metadata) {
    if (creating && base == null) {
      require(rules.check(table, metadata.location(), metadata.properties()));
      try {
        answered = remote.commitCreate(table, metadata);
      } catch (RuntimeException e) {
        rules.release(table);
        throw e;
      }
      return;
    }
    if (base == null) {
      throw new IllegalStateException("A commit to federated table " + table + " needs its base");
    }
    Set<String> held = Set.copyOf(SluiceCatalog.locationKeysOf(base));
    require(rules.check(table, metadata.location(), metadata.properties(), held));
    answered = remote.commit(table, base, metadata);
  }

  private void require(Optional<RemoteLocationRules.Breach> breach) {
    if (breach.isPresent()) {
      throw new RemoteErrors.Refused(
          "Refused for federated table " + table + ": " + breach.get().describe());
    }
  }

  @Override
  public FileIO io() {
    return NO_FILES;
  }

  @Override
  public String metadataFileLocation(String fileName) {
    return current().location() + "/metadata/" + fileName;
  }

  @Override
  public LocationProvider locationProvider() {
    return LocationProviders.locationsFor(current().location(), current().properties());
  }
}
