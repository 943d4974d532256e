package dev.sluice.cli;

import com.fasterxml.jackson.databind.JsonNode;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.util.List;

/**
 * The Iceberg REST paths (under {@code /api/catalog/v1}) of one catalog, with the prefix the
 * server's config endpoint names for it ({@code GET /config?warehouse=CATALOG}), as an Iceberg
 * client finds it. A namespace is one path segment, its levels joined by U+001F.
 */
final class IcebergPaths {
  private static final String LEVEL_SEPARATOR = "\u001f";

  private final String prefix;

  private IcebergPaths(String prefix) {
    this.prefix = prefix;
  }

  static IcebergPaths of(ManagementClient client, String catalog) {
    JsonNode config =
        client.iceberg(
            "GET", "/config?warehouse=" + URLEncoder.encode(catalog, StandardCharsets.UTF_8), null);
    JsonNode prefix = config == null ? null : config.path("overrides").get("prefix");
    if (prefix == null || !prefix.isTextual() || prefix.asText().isEmpty()) {
      throw new AdminFailure(
          "the server's Iceberg config for catalog " + catalog + " has no prefix");
    }
    // Already encoded as a path segment by the server (Iceberg's RESTUtil.encodeString).
    return new IcebergPaths(prefix.asText());
  }

  String namespaces() {
    return "/" + prefix + "/namespaces";
  }

  /** {@code ?parent=} for the children of {@code parent}; none for the top level. */
  String namespaces(Namespace parent) {
    return parent == null
        ? namespaces()
        : namespaces()
            + "?parent="
            + URLEncoder.encode(joined(parent.levels()), StandardCharsets.UTF_8);
  }

  String namespace(Namespace namespace) {
    return namespaces() + "/" + ApiPath.encode(joined(namespace.levels()));
  }

  String tables(Namespace namespace) {
    return namespace(namespace) + "/tables";
  }

  String table(Namespace namespace, String table) {
    return tables(namespace) + "/" + ApiPath.encode(table);
  }

  /** {@code register} (tables) or {@code register-view}. */
  String register(Namespace namespace, boolean view) {
    return namespace(namespace) + (view ? "/register-view" : "/register");
  }

  String views(Namespace namespace) {
    return namespace(namespace) + "/views";
  }

  String view(Namespace namespace, String view) {
    return views(namespace) + "/" + ApiPath.encode(view);
  }

  static String joined(List<String> levels) {
    return String.join(LEVEL_SEPARATOR, levels);
  }
}
