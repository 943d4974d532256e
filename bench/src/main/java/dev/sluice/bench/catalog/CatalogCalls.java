package dev.sluice.bench.catalog;

import com.fasterxml.jackson.databind.JsonNode;
import dev.sluice.bench.http.HttpConnection;
import dev.sluice.bench.http.HttpResult;
import dev.sluice.bench.target.Endpoint;
import java.io.IOException;

/**
 * The catalog calls made outside measurements (discovering the prefix, creating namespaces and
 * tables); each fails loudly, since a benchmark on a half-built fixture would mislead.
 */
public final class CatalogCalls {
  private final Endpoint endpoint;
  private final HttpConnection http;

  public CatalogCalls(Endpoint endpoint, HttpConnection http) {
    this.endpoint = endpoint;
    this.http = http;
  }

  /**
   * The endpoint with the prefix its {@code /v1/config} announces for {@code warehouse} (may be
   * null).
   */
  public static Endpoint withConfiguredPrefix(
      Endpoint endpoint, HttpConnection http, String warehouse) throws IOException {
    String path =
        endpoint.basePath() + "/v1/config" + (warehouse == null ? "" : "?warehouse=" + warehouse);
    HttpResult config = require(http.get(path), "GET " + path);
    String prefix = Json.tree(config.body()).path("overrides").path("prefix").asText("");
    return endpoint.withPrefix(prefix);
  }

  /** Creates the namespace unless it exists. */
  public void ensureNamespace(String namespace) throws IOException {
    HttpResult created =
        http.postJson(endpoint.namespaces(), TableBodies.createNamespace(namespace));
    if (created.status() != 409) {
      require(created, "create namespace " + namespace);
    }
  }

  /** Creates the table unless it exists, and returns what a writer needs to know of it. */
  public TableState ensureTable(String namespace, String table) throws IOException {
    HttpResult created = http.postJson(endpoint.tables(namespace), TableBodies.createTable(table));
    if (created.status() == 409) {
      return TableState.parse(
          require(http.get(endpoint.table(namespace, table)), "load " + table).body());
    }
    return TableState.parse(require(created, "create table " + namespace + "." + table).body());
  }

  /** The table's load response, parsed (its {@code config} says how to reach its files). */
  public JsonNode loadTable(String namespace, String table) throws IOException {
    return Json.tree(
        require(http.get(endpoint.table(namespace, table)), "load " + namespace + "." + table)
            .body());
  }

  /** POSTs a sign request to {@code path} and returns the signed request, parsed. */
  public JsonNode signed(String path, byte[] body) throws IOException {
    return Json.tree(require(http.postJson(path, body), "sign via " + path).body());
  }

  public static HttpResult require(HttpResult result, String what) throws IOException {
    if (!result.ok()) {
      throw new IOException(what + " failed: HTTP " + result.status() + " " + result.excerpt());
    }
    return result;
  }
}
