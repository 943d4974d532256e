package dev.sluice.api;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonProperty;
import java.util.List;

/**
 * A privilege on a securable: {@code type} is {@code catalog}, {@code namespace}, {@code table} or
 * {@code view}; a namespace, table or view names its {@code namespace} levels, a table its {@code
 * tableName}, a view its {@code viewName}. The server checks the combination and the privilege.
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
public record Grant(
    @JsonProperty(required = true) String type,
    List<String> namespace,
    String tableName,
    String viewName,
    @JsonProperty(required = true) String privilege) {
  public Grant {
    Fields.nonEmpty(type, "grant.type");
    Fields.nonEmpty(privilege, "grant.privilege");
    namespace = Fields.copyOrNull(namespace);
  }

  public static Grant onCatalog(String privilege) {
    return new Grant("catalog", null, null, null, privilege);
  }

  public static Grant onNamespace(List<String> namespace, String privilege) {
    return new Grant("namespace", namespace, null, null, privilege);
  }

  public static Grant onTable(List<String> namespace, String table, String privilege) {
    return new Grant("table", namespace, table, null, privilege);
  }

  public static Grant onView(List<String> namespace, String view, String privilege) {
    return new Grant("view", namespace, null, view, privilege);
  }
}
