package dev.sluice.cli;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.net.URI;
import java.net.URLDecoder;
import java.net.URLEncoder;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The catalog {@code sluice catalogs import} reads from: any Iceberg REST catalog, by plain HTTP as
 * the rest of the CLI talks to Sluice (its namespaces, table and view lists, loads, and, only for a
 * source that enforces Sluice's write freeze, the commits that freeze). Its prefix comes from its
 * {@code /v1/config}; a source that answers {@code sluice-write-freeze-property} there is a Sluice
 * catalog that enforces the freeze (detected positively, never guessed).
 */
final class SourceCatalog {
  /** The field of a Sluice catalog's {@code /v1/config} answer naming its freeze property. */
  static final String FREEZE_CONFIG = "sluice-write-freeze-property";

  /** The spec's namespace separator in paths, unless the source's config overrides it. */
  private static final String SEPARATOR = "\u001f";

  /** How the source is authenticated: a bearer token, client credentials, or nothing. */
  record Auth(String token, String clientId, String clientSecret, String scope) {
    static Auth none() {
      return new Auth(null, null, null, null);
    }
  }

  private final ObjectMapper mapper = new ObjectMapper();
  private final HttpTransport transport;
  private final String base;
  private final String token;
  private String prefix = "";
  private String separator = SEPARATOR;
  private String freezeProperty;

  private SourceCatalog(HttpTransport transport, String base, String token) {
    this.transport = transport;
    this.base = base;
    this.token = token;
  }

  /** Authenticates (if asked) and reads the source's config for {@code warehouse} (may be null). */
  static SourceCatalog connect(HttpTransport transport, URI uri, String warehouse, Auth auth) {
    String base = uri.toString().replaceAll("/+$", "");
    String token = auth.token();
    if (auth.clientId() != null) {
      try {
        token =
            new TokenClient(transport, new ObjectMapper())
                .fetch(
                    URI.create(base + "/v1/oauth/tokens"),
                    auth.clientId(),
                    auth.clientSecret(),
                    auth.scope());
      } catch (ApiException e) {
        throw new AdminFailure(
            "the source "
                + base
                + " refused the client credentials of --from-client-id "
                + auth.clientId()
                + ": "
                + e.getMessage());
      }
    }
    SourceCatalog source = new SourceCatalog(transport, base, token);
    JsonNode config =
        source.get("/v1/config" + (warehouse == null ? "" : "?warehouse=" + encode(warehouse)));
    JsonNode prefix = config.path("overrides").path("prefix");
    if (prefix.isTextual() && !prefix.asText().isEmpty()) {
      // Already encoded as a path segment by the source (Iceberg's RESTUtil.encodeString).
      source.prefix = "/" + prefix.asText();
    }
    // Iceberg 1.11's reference server answers "namespace-separator": "%2E" (URL-encoded).
    JsonNode separator = config.path("overrides").path("namespace-separator");
    if (separator.isTextual() && !separator.asText().isEmpty()) {
      source.separator = URLDecoder.decode(separator.asText(), StandardCharsets.UTF_8);
    }
    JsonNode freeze = config.path(FREEZE_CONFIG);
    source.freezeProperty =
        freeze.isTextual() && !freeze.asText().isBlank() ? freeze.asText() : null;
    return source;
  }

  /** The URI the source was given by, for messages. */
  String uri() {
    return base;
  }

  /** The property of the source's write freeze, or null when the source enforces none. */
  String freezeProperty() {
    return freezeProperty;
  }

  /** The namespaces directly under {@code parent} (the top level for an empty one), sorted. */
  List<List<String>> namespaces(List<String> parent) {
    String path = root() + "/namespaces";
    if (!parent.isEmpty()) {
      path += "?parent=" + encode(String.join(separator, parent));
    }
    List<List<String>> children = new ArrayList<>();
    for (JsonNode levels : pages(path, "namespaces")) {
      List<String> namespace = new ArrayList<>();
      levels.forEach(level -> namespace.add(level.asText()));
      // Some catalogs answer every descendant, or the parent itself: keep direct children only.
      if (namespace.size() == parent.size() + 1
          && namespace.subList(0, parent.size()).equals(parent)) {
        children.add(List.copyOf(namespace));
      }
    }
    children.sort((a, b) -> String.join(".", a).compareTo(String.join(".", b)));
    return children;
  }

  /** A namespace's properties; a 404 is an {@link ApiException}. */
  Map<String, String> namespaceProperties(List<String> namespace) {
    Map<String, String> properties = new LinkedHashMap<>();
    get(namespacePath(namespace))
        .path("properties")
        .fields()
        .forEachRemaining(e -> properties.put(e.getKey(), e.getValue().asText()));
    return properties;
  }

  /** The names of a namespace's tables ({@code views} false) or views, sorted. */
  List<String> names(List<String> namespace, boolean views) {
    List<String> names = new ArrayList<>();
    for (JsonNode identifier :
        pages(namespacePath(namespace) + (views ? "/views" : "/tables"), "identifiers")) {
      names.add(identifier.path("name").asText());
    }
    names.sort(String::compareTo);
    return names;
  }

  /** A table's or view's load answer ({@code metadata-location}, {@code metadata}). */
  JsonNode load(List<String> namespace, String name, boolean view) {
    return get(objectPath(namespace, name, view));
  }

  /** Commits {@code body} to a table or view; its answer (the new metadata location). */
  JsonNode commit(List<String> namespace, String name, boolean view, JsonNode body) {
    return send("POST", objectPath(namespace, name, view), body);
  }

  private String root() {
    return "/v1" + prefix;
  }

  private String namespacePath(List<String> namespace) {
    return root() + "/namespaces/" + ApiPath.encode(String.join(separator, namespace));
  }

  private String objectPath(List<String> namespace, String name, boolean view) {
    return namespacePath(namespace) + (view ? "/views/" : "/tables/") + ApiPath.encode(name);
  }

  private List<JsonNode> pages(String path, String field) {
    List<JsonNode> items = new ArrayList<>();
    Set<String> seen = new HashSet<>();
    String next = path;
    while (true) {
      JsonNode page = get(next);
      page.path(field).forEach(items::add);
      String token = page.path("next-page-token").asText("");
      if (token.isEmpty()) {
        return items;
      }
      if (!seen.add(token)) {
        throw new AdminFailure(base + " sent the same page token twice while listing " + path);
      }
      next = path + (path.contains("?") ? "&" : "?") + "pageToken=" + encode(token);
    }
  }

  private JsonNode get(String path) {
    return send("GET", path, null);
  }

  private JsonNode send(String method, String path, JsonNode body) {
    HttpRequest.Builder request =
        HttpRequest.newBuilder(URI.create(base + path))
            .timeout(HttpTransport.REQUEST_TIMEOUT)
            .header("Accept", "application/json");
    if (token != null) {
      request.header("Authorization", "Bearer " + token);
    }
    if (body == null) {
      request.method(method, HttpRequest.BodyPublishers.noBody());
    } else {
      request
          .header("Content-Type", "application/json")
          .method(
              method, HttpRequest.BodyPublishers.ofString(body.toString(), StandardCharsets.UTF_8));
    }
    HttpResponse<String> response = transport.send(request.build());
    if (response.statusCode() / 100 != 2) {
      throw ApiException.from(response.statusCode(), response.body());
    }
    try {
      String text = response.body();
      return text == null || text.isBlank() ? mapper.createObjectNode() : mapper.readTree(text);
    } catch (IOException e) {
      throw new AdminFailure("the source " + base + " answered with invalid JSON", e);
    }
  }

  private static String encode(String value) {
    return URLEncoder.encode(value, StandardCharsets.UTF_8);
  }
}
