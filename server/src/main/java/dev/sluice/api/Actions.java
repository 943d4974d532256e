package dev.sluice.api;

import java.util.List;

/**
 * {@code GET /actions} and {@code GET /catalogs/{name}/actions}: the operations (by operation id:
 * the management API's, and the Iceberg REST API's inside a catalog) the caller may take on a
 * securable, decided by the same authorizer as the calls themselves. A console shows only these.
 */
public record Actions(List<String> actions) {
  public Actions {
    actions = Fields.copy(actions);
  }
}
