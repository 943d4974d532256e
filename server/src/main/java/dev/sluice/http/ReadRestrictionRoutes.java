package dev.sluice.http;

import static java.util.Objects.requireNonNull;

import dev.sluice.api.ReadRestriction;
import dev.sluice.api.SetReadRestrictionRequest;
import dev.sluice.api.TableReadRestrictions;
import dev.sluice.management.ReadRestrictionAdmin;
import java.util.List;
import org.apache.iceberg.catalog.TableIdentifier;

/**
 * {@code GET …/catalogs/{catalog}/namespaces/{namespace}/tables/{table}/read-restrictions}, and
 * {@code PUT|DELETE …/read-restrictions/{principalRole}}: a table's read restrictions per principal
 * role (the namespace in the path as in Iceberg's REST API, levels separated by {@code %1F}).
 * {@link ManagementRoutes} declares them, each CATALOG_MANAGE_ACCESS's.
 */
public final class ReadRestrictionRoutes {
  static final String PATH =
      ManagementRoutes.BASE
          + "/catalogs/{catalog}/namespaces/{namespace}/tables/{table}/read-restrictions";
  static final String ROLE_PATH = PATH + "/{principalRole}";

  private final ReadRestrictionAdmin restrictions;

  public ReadRestrictionRoutes(ReadRestrictionAdmin restrictions) {
    this.restrictions = requireNonNull(restrictions, "restrictions");
  }

  Reply list(ManagementRoutes.Call call) {
    String catalog = call.x().path("catalog");
    TableIdentifier table = table(call.x());
    return Reply.okPlain(
        new TableReadRestrictions(
            catalog,
            List.of(table.namespace().levels()),
            table.name(),
            restrictions.list(catalog, table)));
  }

  Reply set(ManagementRoutes.Call call) {
    SetReadRestrictionRequest request = call.body(SetReadRestrictionRequest.class);
    ReadRestriction set =
        restrictions.set(
            call.caller(),
            call.x().path("catalog"),
            table(call.x()),
            call.x().path("principalRole"),
            request);
    return Reply.okPlain(set);
  }

  Reply remove(ManagementRoutes.Call call) {
    restrictions.remove(
        call.caller(), call.x().path("catalog"), table(call.x()), call.x().path("principalRole"));
    return Reply.NO_CONTENT;
  }

  private static TableIdentifier table(Exchange x) {
    return TableIdentifier.of(x.namespace("namespace"), x.path("table"));
  }
}
