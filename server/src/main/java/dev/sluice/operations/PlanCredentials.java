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
import dev.sluice.vending.StorageCredential;
import dev.sluice.vending.VendingService;
import java.util.List;
import java.util.Map;
import org.apache.iceberg.TableMetadata;
import org.apache.iceberg.rest.CatalogHandlers;
import org.apache.iceberg.rest.credentials.Credential;
import org.apache.iceberg.rest.credentials.ImmutableCredential;

/**
 * The storage access a scan plan carries: read-only, for the plan's files only. Vended credentials
 * cover them as narrowly as the backend can express; remote signing signs through the plan's own
 * endpoint, which signs nothing but its files. Says how narrowly, in the plan's audit event.
 */
public final class PlanCredentials {
  private static final ObjectMapper JSON = new ObjectMapper();

  private final TableCredentials tables;
  private final VendingService vending;
  private final Authorizer authz;

  public PlanCredentials(TableCredentials tables, VendingService vending, Authorizer authz) {
    this.tables = requireNonNull(tables, "tables");
    this.vending = requireNonNull(vending, "vending");
    this.authz = requireNonNull(authz, "authz");
  }

  /** The delegation of a plan: what a load would get, but always read-only. */
  Delegation decide(TableCall call, String accessDelegation) {
    Delegation delegation = tables.decide(call, accessDelegation);
    return delegation.isNone() ? delegation : Delegation.of(delegation.kind(), AccessMode.READ);
  }

  /** The plan's storage credentials, vended (or read from the vending cache) now. */
  List<Credential> of(TableCall call, ScanPlan plan) {
    Delegation delegation = plan.delegation();
    if (delegation.isNone()) {
      return List.of();
    }
    SluiceCatalog catalog = call.catalog();
    TableMetadata metadata = CatalogHandlers.loadTable(catalog, call.table()).tableMetadata();
    if (delegation.kind() == Delegation.Kind.REMOTE_SIGNING) {
      Map<String, String> config =
          catalog
              .settings()
              .storage()
              .signingConfig(TableCredentials.planSignEndpoint(catalog, call.table(), plan.id()));
      return List.of(
          ImmutableCredential.builder().prefix(metadata.location()).config(config).build());
    }
    List<StorageCredential> vended = tables.credentials(call, delegation, metadata);
    Map<String, String> refresh = TableCredentials.refreshConfig(call);
    return vended.stream().map(c -> TableCredentials.credential(c, refresh)).toList();
  }

  /** Records a finished plan: its files and how its access was confined. */
  void audit(Caller caller, TableCall call, ScanPlan plan, String action) {
    ScanPlanner.Planned planned = plan.planned();
    ObjectNode detail = JSON.createObjectNode();
    detail.put("planId", plan.id());
    detail.put("files", planned.files().size());
    detail.put("tasks", planned.tasks().size());
    detail.put("access", access(plan.delegation()));
    if (plan.restriction() != null) {
      detail.put("rowFilter", plan.restriction());
    }
    authz.record(
        caller,
        action,
        call.catalog().name(),
        Securables.tableRef(call.table()).toString(),
        true,
        detail.toString());
  }

  /** How narrowly the plan's storage access is confined, as its audit event says. */
  private static String access(Delegation delegation) {
    if (delegation.isNone()) {
      return "none";
    }
    return delegation.kind() == Delegation.Kind.REMOTE_SIGNING
        ? "signing: the plan's files"
        : "vended: the table's locations";
  }
}
