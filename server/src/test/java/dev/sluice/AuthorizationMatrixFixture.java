package dev.sluice;

import static dev.sluice.AuthorizationMatrixTest.SCHEMA;
import static dev.sluice.AuthorizationMatrixTest.VIEW_VERSION;
import static java.util.Objects.requireNonNull;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.sluice.testing.Admin;
import dev.sluice.testing.FileTreeSnapshot;
import dev.sluice.testing.TestServer;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * What the Iceberg authorization tests share: a server with principal bob (principal role
 * bob_role), fresh catalogs that all hold the same objects, the catalog's state as root sees it,
 * and the run of one matrix case (403 without, success with, 403 right after the revoke).
 */
final class AuthorizationMatrixFixture implements AutoCloseable {
  static final String API = "/api/catalog/v1/";
  private static final AtomicInteger CATALOGS = new AtomicInteger();

  /** Each fresh catalog's warehouse folder, whose files are part of its state. */
  private final Map<String, Path> warehouses = new ConcurrentHashMap<>();

  final TestServer server;
  final Admin admin;
  final String bobToken;

  AuthorizationMatrixFixture(TestServer server) throws Exception {
    this.server = requireNonNull(server, "server");
    this.admin = new Admin(server);
    String[] bob = admin.principal("bob", "bob_role");
    this.bobToken = server.token(bob[0], bob[1]);
  }

  /** One privilege on one securable ({@code ns} and {@code object} as the type needs them). */
  record Grant(String type, List<String> ns, String object, String privilege) {
    String json() {
      return Admin.grantJson(type, ns, object, privilege);
    }
  }

  /**
   * One endpoint: what to grant, the call, and its success status. {@code path} is under {@code
   * /api/catalog/v1/{prefix}}, or absolute when it starts with {@code /api/}; there {@code {c}} is
   * the catalog. {@code {meta}} in the body is the metadata file of the dropped table ns.gone,
   * {@code {view-meta}} that of the dropped view ns.vgone.
   */
  record Case(
      String name, List<Grant> grants, String method, String path, String body, int okStatus) {
    /** A case that needs one privilege. */
    Case(
        String name,
        String privilege,
        String grantType,
        List<String> ns,
        String object,
        String method,
        String path,
        String body,
        int okStatus) {
      this(
          name, List.of(new Grant(grantType, ns, object, privilege)), method, path, body, okStatus);
    }

    @Override
    public String toString() {
      return name;
    }
  }

  /** A fresh catalog, and the metadata files its dropped table ns.gone and view ns.vgone left. */
  record Catalog(String name, String orphanMetadata, String orphanViewMetadata) {
    String url(String path) {
      return path.startsWith("/api/") ? path.replace("{c}", name) : API + name + path;
    }

    String fill(String body) {
      return body == null
          ? null
          : body.replace("{meta}", orphanMetadata).replace("{view-meta}", orphanViewMetadata);
    }
  }

  /**
   * A fresh catalog: namespaces ns, ns.inner, empty; tables ns.t, ns.inner.deep; view ns.v; table
   * ns.gone and view ns.vgone created and dropped (their files stay); catalog role cr held by bob,
   * with no grants.
   */
  Catalog freshCatalog() throws Exception {
    Path warehouse = server.dataDir().resolve("matrix-" + CATALOGS.incrementAndGet());
    String catalog = server.createCatalog("m", List.of(warehouse.toUri().toString()), warehouse);
    warehouses.put(catalog, warehouse);
    String base = API + catalog;
    for (String body :
        List.of(
            "{\"namespace\": [\"ns\"]}",
            "{\"namespace\": [\"ns\", \"inner\"]}",
            "{\"namespace\": [\"empty\"]}")) {
      ok(server.send("POST", base + "/namespaces", body), 200);
    }
    String table = "{\"name\": \"%s\", \"schema\": " + SCHEMA + "}";
    ok(server.send("POST", base + "/namespaces/ns/tables", table.formatted("t")), 200);
    ok(server.send("POST", base + "/namespaces/ns%1Finner/tables", table.formatted("deep")), 200);
    HttpResponse<String> gone =
        server.send("POST", base + "/namespaces/ns/tables", table.formatted("gone"));
    ok(gone, 200);
    ok(server.send("DELETE", base + "/namespaces/ns/tables/gone", null), 204);
    String view =
        "{\"name\": \"%s\", \"schema\": "
            + SCHEMA
            + ", \"view-version\": "
            + VIEW_VERSION
            + ", \"properties\": {}}";
    ok(server.send("POST", base + "/namespaces/ns/views", view.formatted("v")), 200);
    HttpResponse<String> viewGone =
        server.send("POST", base + "/namespaces/ns/views", view.formatted("vgone"));
    ok(viewGone, 200);
    ok(server.send("DELETE", base + "/namespaces/ns/views/vgone", null), 204);
    admin.catalogRole(catalog, "cr", "bob_role");
    return new Catalog(
        catalog,
        TestServer.json(gone.body()).get("metadata-location").asText(),
        TestServer.json(viewGone.body()).get("metadata-location").asText());
  }

  private static void ok(HttpResponse<String> response, int status) {
    assertThat(response.statusCode()).as(response.body()).isEqualTo(status);
  }

  /**
   * Everything in the catalog as root sees it: namespaces with properties, tables and views with
   * metadata pointers; and every file in its warehouse, so that a metadata file written by a call
   * that was then refused shows too (nothing points at it).
   */
  String state(String catalog) throws Exception {
    StringBuilder sb = new StringBuilder();
    walk(catalog, null, sb);
    return sb.append(FileTreeSnapshot.of(warehouses.get(catalog))).toString();
  }

  private void walk(String catalog, String parent, StringBuilder sb) throws Exception {
    String base = API + catalog + "/namespaces";
    JsonNode list =
        TestServer.json(
            server.send("GET", base + (parent == null ? "" : "?parent=" + parent), null).body());
    for (JsonNode ns : list.get("namespaces")) {
      StringBuilder key = new StringBuilder();
      ns.forEach(level -> key.append(key.length() == 0 ? "" : "%1F").append(level.asText()));
      sb.append(server.send("GET", base + "/" + key, null).body());
      for (String kind : List.of("tables", "views")) {
        JsonNode ids =
            TestServer.json(server.send("GET", base + "/" + key + "/" + kind, null).body())
                .get("identifiers");
        for (JsonNode id : ids) {
          sb.append(kind)
              .append(':')
              .append(id)
              .append('=')
              .append(pointer(catalog, key + "/" + kind + "/" + id.get("name").asText()))
              .append('\n');
        }
      }
      walk(catalog, key.toString(), sb);
    }
  }

  /**
   * The metadata location of a table or view ({@code ns/tables/t}) as root loads it, or its status
   * when it does not load.
   */
  String pointer(String catalog, String object) throws Exception {
    HttpResponse<String> loaded = server.send("GET", API + catalog + "/namespaces/" + object, null);
    return loaded.statusCode() == 200
        ? TestServer.json(loaded.body()).get("metadata-location").asText()
        : "status " + loaded.statusCode();
  }

  static void assertForbidden(HttpResponse<String> response) throws Exception {
    assertThat(response.statusCode()).as(response.body()).isEqualTo(403);
    if (!response.body().isEmpty()) { // HEAD answers carry no body
      assertThat(TestServer.json(response.body()).get("error").get("type").asText())
          .isEqualTo("ForbiddenException");
    }
  }

  /** Whether the grant's securable exists now (root's HEAD); grants on a dropped one are gone. */
  private boolean exists(String catalog, Grant grant) throws Exception {
    if (grant.type().equals("catalog")) {
      return true;
    }
    String path = API + catalog + "/namespaces/" + String.join("%1F", grant.ns());
    if (!grant.type().equals("namespace")) {
      path += "/" + grant.type() + "s/" + grant.object();
    }
    return server.send("HEAD", path, null).statusCode() == 204;
  }

  /**
   * 403 and no change without the grants; {@code okStatus} with them; after the revoke, 403 and no
   * change on the very next call. A grant whose securable the call removed (a drop) or moved (a
   * rename) is gone with it, so its revoke finds nothing.
   */
  void run(Case c) throws Exception {
    Catalog catalog = freshCatalog();
    String path = catalog.url(c.path());
    String body = catalog.fill(c.body());
    String before = state(catalog.name());

    assertForbidden(server.sendAs(bobToken, c.method(), path, body));
    assertThat(state(catalog.name())).as("a refused call changes nothing").isEqualTo(before);

    for (Grant grant : c.grants()) {
      admin.grant(catalog.name(), "cr", grant.json());
    }
    HttpResponse<String> allowed = server.sendAs(bobToken, c.method(), path, body);
    assertThat(allowed.statusCode()).as(allowed.body()).isEqualTo(c.okStatus());

    for (Grant grant : c.grants()) {
      int revoked = admin.tryRevoke(catalog.name(), "cr", grant.json());
      if (exists(catalog.name(), grant)) {
        assertThat(revoked).as("revoke %s", grant).isBetween(200, 204);
      } else {
        assertThat(revoked).as("a grant on a removed object is gone: %s", grant).isEqualTo(404);
      }
    }
    String afterSuccess = state(catalog.name());
    assertForbidden(server.sendAs(bobToken, c.method(), path, body));
    assertThat(state(catalog.name())).isEqualTo(afterSuccess);
  }

  @Override
  public void close() throws Exception {
    server.close();
  }
}
