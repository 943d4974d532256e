package dev.sluice.operations;

import static java.util.Objects.requireNonNull;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.sluice.authz.Authorizer;
import dev.sluice.authz.Caller;
import dev.sluice.catalog.ScanPlanner;
import dev.sluice.catalog.SluiceCatalog;
import dev.sluice.vending.AccessMode;
import dev.sluice.vending.Delegation;
import dev.sluice.vending.FileScope;
import dev.sluice.vending.PlanCredentials;
import dev.sluice.vending.StorageCredential;
import dev.sluice.vending.VendingService;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import org.apache.iceberg.FileScanTask;
import org.apache.iceberg.TableMetadata;
import org.apache.iceberg.exceptions.ForbiddenException;
import org.apache.iceberg.rest.CatalogHandlers;
import org.apache.iceberg.rest.credentials.Credential;
import org.apache.iceberg.rest.credentials.ImmutableCredential;

/**
 * The storage access a scan plan carries: read-only, for the plan's files only. Vended credentials
 * cover them as narrowly as the backend can express; remote signing signs through the plan's own
 * endpoint, which signs nothing but its files. Says how narrowly, in the plan's audit event.
 */
public final class PlanAccess {
  private static final ObjectMapper JSON = new ObjectMapper();

  private final TableCredentials tables;
  private final VendingService vending;
  private final Authorizer authz;

  public PlanAccess(TableCredentials tables, VendingService vending, Authorizer authz) {
    this.tables = requireNonNull(tables, "tables");
    this.vending = requireNonNull(vending, "vending");
    this.authz = requireNonNull(authz, "authz");
  }

  /** The delegation of a plan: what a load would get, but always read-only. */
  Delegation decide(TableCall call, String accessDelegation) {
    Delegation delegation = tables.decide(call, accessDelegation);
    return delegation.isNone() ? delegation : Delegation.of(delegation.kind(), AccessMode.READ);
  }

  /**
   * The plan's storage credentials, vended (or read from the vending cache) now, covering its files
   * as narrowly as the backend can; what they cover is kept in the plan for its audit event. A file
   * outside the table's locations (a manifest can name any path) is a 403: nothing is vended.
   */
  List<Credential> of(TableCall call, ScanPlan plan) {
    Delegation delegation = plan.delegation();
    if (delegation.isNone()) {
      plan.covered("none", false);
      return List.of();
    }
    Optional<List<Credential>> kept = plan.keptCredentials(System.currentTimeMillis());
    if (kept.isPresent()) {
      // Neither the table loaded nor a large plan's files narrowed again on every page and
      // refresh.
      return kept.get();
    }
    SluiceCatalog catalog = call.catalog();
    TableMetadata metadata = CatalogHandlers.loadTable(catalog, call.table()).tableMetadata();
    if (delegation.kind() == Delegation.Kind.REMOTE_SIGNING) {
      Map<String, String> config =
          catalog
              .settings()
              .storage()
              .signingConfig(TableCredentials.planSignEndpoint(catalog, call.table(), plan.id()));
      plan.covered("signing: the plan's files", true);
      return List.of(
          ImmutableCredential.builder().prefix(metadata.location()).config(config).build());
    }
    PlanCredentials vended;
    try {
      vended =
          vending.vendForFiles(
              catalog.storageFor(call.table().namespace()),
              catalog.settings().locationPolicy(),
              metadata.location(),
              metadata.properties(),
              plan.planned().files(),
              call.attribution());
    } catch (IllegalArgumentException e) {
      throw new ForbiddenException(
          "Cannot vend for scan plan %s of %s: %s", plan.id(), call.table(), e.getMessage());
    }
    plan.covered(describe(vended.scope()), confines(vended.scope(), plan));
    Map<String, String> refresh = TableCredentials.refreshConfig(call);
    List<Credential> credentials =
        vended.credentials().stream().map(c -> TableCredentials.credential(c, refresh)).toList();
    long expires =
        vended.credentials().stream()
            .mapToLong(StorageCredential::expiresAtMs)
            .min()
            .orElse(Long.MAX_VALUE);
    plan.keep(credentials, System.currentTimeMillis(), expires);
    return credentials;
  }

  /**
   * Whether the store itself keeps the caller to the plan's partitions: the credential names the
   * plan's files, or only folders of the plan's partitions (Iceberg's default layout); folders
   * merged above the partitions, or the whole table, do not.
   */
  private static boolean confines(FileScope scope, ScanPlan plan) {
    return switch (scope.narrowness()) {
      case OBJECTS -> true;
      case TABLE -> false;
      case PREFIXES -> {
        Set<String> partitions = new HashSet<>();
        for (FileScanTask task : plan.planned().tasks()) {
          if (task.spec().isPartitioned()) {
            partitions.add("/" + task.spec().partitionToPath(task.file().partition()) + "/");
          }
        }
        yield !partitions.isEmpty()
            && scope.prefixes().stream()
                .allMatch(prefix -> partitions.stream().anyMatch(prefix::contains));
      }
    };
  }

  /** What a vended plan credential covers, as the plan's audit event says it. */
  private static String describe(FileScope scope) {
    return switch (scope.narrowness()) {
      case OBJECTS -> "vended: the plan's " + scope.objects().size() + " files";
      case PREFIXES -> "vended: " + scope.prefixes().size() + " folders holding the plan's files";
      case TABLE -> "vended: the table's locations (the backend cannot be narrower)";
    };
  }

  /** Records a plan refused after planning: a file it would need outside the table's locations. */
  void refuse(Caller caller, TableCall call, ScanPlan plan, String action, String why) {
    authz.record(
        caller,
        action,
        call.catalog().name(),
        Securables.tableRef(call.table()).toString(),
        false,
        why);
  }

  /** Records a finished plan: its files and how its access was confined. */
  void audit(Caller caller, TableCall call, ScanPlan plan, String action) {
    ScanPlanner.Planned planned = plan.planned();
    ObjectNode detail = JSON.createObjectNode();
    detail.put("planId", plan.id());
    detail.put("files", planned.files().size());
    detail.put("tasks", planned.tasks().size());
    detail.put("access", plan.covered());
    if (plan.rowFiltered()) {
      // Storage enforces the filter when partition values alone decided it and the credential
      // reaches only the plan's partitions; otherwise the engine must apply the residuals.
      detail.put(
          "rowFilter",
          planned.rowFilterByPartition() && plan.storageConfines()
              ? "enforced by storage"
              : "enforced by the engine");
    }
    authz.record(
        caller,
        action,
        call.catalog().name(),
        Securables.tableRef(call.table()).toString(),
        true,
        detail.toString());
  }
}
