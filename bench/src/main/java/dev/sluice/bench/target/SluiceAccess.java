package dev.sluice.bench.target;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.sluice.bench.catalog.CatalogCalls;
import dev.sluice.bench.catalog.Json;
import dev.sluice.bench.http.HttpClients;
import dev.sluice.bench.http.HttpConnection;
import dev.sluice.bench.http.HttpResult;
import java.io.IOException;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.util.List;

/**
 * Sluice's side of authentication for the benchmark: OAuth2 client-credentials tokens, and a
 * non-root principal whose access comes only from grants (principal → principal role → catalog role
 * → namespace grants), set up through the management API the way an operator would.
 */
public final class SluiceAccess {
  static final String PRINCIPAL = "bench_user";
  static final String PRINCIPAL_ROLE = "bench_engineers";
  static final String CATALOG_ROLE = "bench_tables";
  private static final String M = "/api/management/v1";
  static final List<String> PRIVILEGES =
      List.of("TABLE_LIST", "TABLE_CREATE", "TABLE_DROP", "TABLE_READ_DATA", "TABLE_WRITE_DATA");

  private final Endpoint server;

  /** {@code server}: Sluice reached without credentials (host, port). */
  public SluiceAccess(Endpoint server) {
    this.server = server;
  }

  public String rootAuthorization() throws IOException {
    return "Bearer " + token(SluiceLauncher.ROOT_CLIENT_ID, SluiceLauncher.ROOT_SECRET);
  }

  /**
   * Creates the non-root principal and its principal role, and returns its Authorization header. It
   * can do nothing until {@link #grantNamespaces} gives its role something.
   */
  public String createGrantedPrincipal(String rootAuthorization) throws IOException {
    try (HttpClients clients =
            HttpClients.of("raw", server.host(), server.port(), rootAuthorization);
        HttpConnection admin = clients.open()) {
      ObjectNode principal = Json.MAPPER.createObjectNode();
      principal.putObject("principal").put("name", PRINCIPAL);
      JsonNode created =
          Json.tree(
              CatalogCalls.require(
                      admin.postJson(M + "/principals", Json.bytes(principal)), "create principal")
                  .body());
      String clientId = created.path("credentials").path("clientId").asText();
      String secret = created.path("credentials").path("clientSecret").asText();

      ObjectNode principalRole = Json.MAPPER.createObjectNode();
      principalRole.putObject("principalRole").put("name", PRINCIPAL_ROLE);
      CatalogCalls.require(
          admin.postJson(M + "/principal-roles", Json.bytes(principalRole)),
          "create principal role");
      CatalogCalls.require(
          admin.putJson(
              M + "/principals/" + PRINCIPAL + "/principal-roles", Json.bytes(principalRole)),
          "assign principal role");
      return "Bearer " + token(clientId, secret);
    }
  }

  /**
   * Gives the principal role of {@link #createGrantedPrincipal} a catalog role in {@code catalog}
   * holding TABLE_LIST, TABLE_CREATE, TABLE_DROP, TABLE_READ_DATA and TABLE_WRITE_DATA on each of
   * {@code namespaces}: the path an operator would set up.
   */
  public void grantNamespaces(String rootAuthorization, String catalog, List<String> namespaces)
      throws IOException {
    try (HttpClients clients =
            HttpClients.of("raw", server.host(), server.port(), rootAuthorization);
        HttpConnection admin = clients.open()) {
      ObjectNode catalogRole = Json.MAPPER.createObjectNode();
      catalogRole.putObject("catalogRole").put("name", CATALOG_ROLE);
      CatalogCalls.require(
          admin.postJson(M + "/catalogs/" + catalog + "/catalog-roles", Json.bytes(catalogRole)),
          "create catalog role");
      CatalogCalls.require(
          admin.putJson(
              M + "/principal-roles/" + PRINCIPAL_ROLE + "/catalog-roles/" + catalog,
              Json.bytes(catalogRole)),
          "assign catalog role");
      for (String namespace : namespaces) {
        for (String privilege : PRIVILEGES) {
          ObjectNode grant = Json.MAPPER.createObjectNode();
          ObjectNode g =
              grant.putObject("grant").put("type", "namespace").put("privilege", privilege);
          g.putArray("namespace").add(namespace);
          CatalogCalls.require(
              admin.putJson(
                  M + "/catalogs/" + catalog + "/catalog-roles/" + CATALOG_ROLE + "/grants",
                  Json.bytes(grant)),
              "grant " + privilege + " on " + namespace);
        }
      }
    }
  }

  /** Creates a catalog from a management-API body ({@code {"catalog": {...}}}). */
  public void createCatalog(String rootAuthorization, ObjectNode body) throws IOException {
    try (HttpClients clients =
            HttpClients.of("raw", server.host(), server.port(), rootAuthorization);
        HttpConnection admin = clients.open()) {
      CatalogCalls.require(admin.postJson(M + "/catalogs", Json.bytes(body)), "create catalog");
    }
  }

  /** The form of a client-credentials grant for the bench's root principal. */
  public static byte[] rootTokenForm() {
    return tokenForm(SluiceLauncher.ROOT_CLIENT_ID, SluiceLauncher.ROOT_SECRET);
  }

  private static byte[] tokenForm(String clientId, String secret) {
    return ("grant_type=client_credentials"
            + "&client_id="
            + URLEncoder.encode(clientId, StandardCharsets.UTF_8)
            + "&client_secret="
            + URLEncoder.encode(secret, StandardCharsets.UTF_8)
            + "&scope="
            + URLEncoder.encode("PRINCIPAL_ROLE:ALL", StandardCharsets.UTF_8))
        .getBytes(StandardCharsets.UTF_8);
  }

  private String token(String clientId, String secret) throws IOException {
    try (HttpClients clients = HttpClients.of("raw", server.host(), server.port(), null);
        HttpConnection http = clients.open()) {
      HttpResult result =
          http.send(
              "POST",
              server.basePath() + "/v1/oauth/tokens",
              tokenForm(clientId, secret),
              "application/x-www-form-urlencoded");
      return Json.tree(CatalogCalls.require(result, "token for " + clientId).body())
          .path("access_token")
          .asText();
    }
  }
}
