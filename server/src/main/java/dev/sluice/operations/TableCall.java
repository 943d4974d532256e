package dev.sluice.operations;

import static java.util.Objects.requireNonNull;

import dev.sluice.authz.Caller;
import dev.sluice.catalog.SluiceCatalog;
import java.util.SortedMap;
import java.util.TreeMap;
import org.apache.iceberg.catalog.TableIdentifier;

/**
 * Who asks about which table (or view: Iceberg names both with a {@link TableIdentifier}), in a
 * catalog already resolved for them ({@link CatalogAccess}): the three things every table request
 * carries, so that no method takes them as loose parameters.
 */
public record TableCall(Caller caller, SluiceCatalog catalog, TableIdentifier table) {
  public TableCall {
    requireNonNull(caller, "caller");
    requireNonNull(catalog, "catalog");
    requireNonNull(table, "table");
  }

  /**
   * Who a credential is vended or a request signed for, for the vendor to record (S3's STS session
   * name and tags): principal (the user, for a delegated token), the engine acting for it (actor,
   * only then), catalog, namespace and table.
   */
  SortedMap<String, String> attribution() {
    SortedMap<String, String> attribution = new TreeMap<>();
    attribution.put("principal", caller.principal());
    if (caller.actor() != null) {
      attribution.put("actor", caller.actor());
    }
    attribution.put("catalog", catalog.name());
    attribution.put("namespace", table.namespace().toString());
    attribution.put("table", table.toString());
    return attribution;
  }
}
