package dev.sluice.testing;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import java.net.http.HttpResponse;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.function.Predicate;
import org.apache.iceberg.SchemaParser;

/**
 * Every kind of answer that vends (create, load, commit, the credentials endpoint, register,
 * stage-create and the staged table's credentials endpoint), walked on one catalog, each checked
 * for what a client needs to refresh its credential: the credential itself, its expiry ({@code
 * *-expires-at*}, in the future) and the refresh endpoint with its switch, in each storage
 * credential and, for table answers, in {@code config}. The keys are Iceberg's, per backend, named
 * here from the catalog's {@code storageType}: a backend that drops one fails.
 */
public final class RefreshKeysWalk {
  private final TestServer server;
  private final String catalog;
  private final String token;
  private final String storageType;

  public RefreshKeysWalk(TestServer server, String catalog, String[] who) throws Exception {
    this.server = server;
    this.catalog = catalog;
    this.token = server.token(who[0], who[1]);
    HttpResponse<String> got = server.send("GET", "/api/management/v1/catalogs/" + catalog, null);
    assertThat(got.statusCode()).as(got.body()).isEqualTo(200);
    JsonNode body = TestServer.json(got.body());
    JsonNode type = body.at("/storageConfigInfo/storageType");
    this.storageType =
        (type.isMissingNode() ? body.at("/catalog/storageConfigInfo/storageType") : type).asText();
    assertThat(storageType).isIn("S3", "R2", "GCS", "AZURE");
  }

  /**
   * The keys a credential for {@code prefix} must carry on {@code storageType}: the credential, its
   * expiry, and where to refresh it.
   */
  static List<String> requiredKeys(String storageType, String prefix) {
    return switch (storageType) {
      case "S3", "R2" ->
          List.of(
              "s3.access-key-id",
              "s3.secret-access-key",
              "s3.session-token",
              "s3.session-token-expires-at-ms",
              "client.refresh-credentials-endpoint",
              "client.refresh-credentials-enabled");
      case "GCS" ->
          List.of(
              "gcs.oauth2.token",
              "gcs.oauth2.token-expires-at",
              "gcs.oauth2.refresh-credentials-endpoint",
              "gcs.oauth2.refresh-credentials-enabled");
      case "AZURE" -> {
        // abfss://container@account.dfs.core.windows.net/path: the keys end with the host.
        String host = prefix.substring(prefix.indexOf('@') + 1).split("/", 2)[0];
        yield List.of(
            "adls.sas-token." + host,
            "adls.sas-token-expires-at-ms." + host,
            "adls.refresh-credentials-endpoint",
            "adls.refresh-credentials-enabled");
      }
      default -> throw new IllegalArgumentException("Unknown storage type: " + storageType);
    };
  }

  /** Walks every answer kind in namespace {@code ns} (tables named {@code refresh_keys*}). */
  public void walk(String ns) throws Exception {
    String tables = "/api/catalog/v1/" + catalog + "/namespaces/" + ns + "/tables";
    String relative = "v1/" + catalog + "/namespaces/" + ns + "/tables/";
    String schema = SchemaParser.toJson(RgwVendingBed.SCHEMA);
    Predicate<String> own = endpoint -> endpoint.equals(relative + "refresh_keys/credentials");

    check(
        "create",
        send("POST", tables, "{\"name\": \"refresh_keys\", \"schema\": " + schema + "}"),
        own);
    check("load", send("GET", tables + "/refresh_keys", null), own);
    check(
        "commit",
        send(
            "POST",
            tables + "/refresh_keys",
            "{\"requirements\": [], \"updates\": [{\"action\": \"set-properties\","
                + " \"updates\": {\"refresh\": \"keys\"}}]}"),
        own);
    check("credentials endpoint", send("GET", tables + "/refresh_keys/credentials", null), own);

    // Register: the table dropped without purge, its metadata file registered under a new name.
    String metadataFile =
        send("GET", tables + "/refresh_keys", null).get("metadata-location").asText();
    HttpResponse<String> dropped = server.sendAs(token, "DELETE", tables + "/refresh_keys", null);
    assertThat(dropped.statusCode()).as(dropped.body()).isEqualTo(204);
    check(
        "register",
        send(
            "POST",
            "/api/catalog/v1/" + catalog + "/namespaces/" + ns + "/register",
            "{\"name\": \"refresh_keys_registered\", \"metadata-location\": \""
                + metadataFile
                + "\"}"),
        endpoint -> endpoint.equals(relative + "refresh_keys_registered/credentials"));

    String stagedPrefix = relative + "refresh_keys_staged/credentials/";
    JsonNode staged =
        send(
            "POST",
            tables,
            "{\"name\": \"refresh_keys_staged\", \"stage-create\": true, \"schema\": "
                + schema
                + "}");
    check("stage-create", staged, endpoint -> endpoint.startsWith(stagedPrefix));
    String stagedEndpoint =
        staged.get("storage-credentials").get(0).get("config").get(refreshEndpointKey()).asText();
    check(
        "staged credentials endpoint",
        send("GET", "/api/catalog/" + stagedEndpoint, null),
        endpoint -> endpoint.equals(stagedEndpoint));
  }

  private String refreshEndpointKey() {
    return requiredKeys(storageType, "abfss://c@h/").stream()
        .filter(key -> key.endsWith("refresh-credentials-endpoint"))
        .findFirst()
        .orElseThrow();
  }

  private JsonNode send(String method, String path, String body) throws Exception {
    HttpResponse<String> response =
        server.sendAs(
            token, method, path, body, Map.of(RgwVendingBed.DELEGATION, "vended-credentials"));
    assertThat(response.statusCode()).as("%s %s: %s", method, path, response.body()).isEqualTo(200);
    return TestServer.json(response.body());
  }

  /**
   * Each credential of {@code answer} (and, for a table answer, its {@code config}) carries every
   * required key, an expiry in the future and a refresh endpoint {@code endpoint} accepts.
   */
  private void check(String kind, JsonNode answer, Predicate<String> endpoint) {
    JsonNode credentials = answer.get("storage-credentials");
    assertThat(credentials).as("%s: storage-credentials", kind).isNotNull().isNotEmpty();
    List<JsonNode> configs = new ArrayList<>();
    credentials.forEach(credential -> configs.add(credential.get("config")));
    if (answer.has("metadata")) {
      configs.add(answer.get("config"));
    }
    String prefix = credentials.get(0).get("prefix").asText();
    for (JsonNode config : configs) {
      for (String key : requiredKeys(storageType, prefix)) {
        assertThat(config.path(key).asText())
            .as("%s on %s: %s in %s", kind, storageType, key, names(config))
            .isNotEmpty();
        if (key.contains("expires-at")) {
          assertThat(Long.parseLong(config.get(key).asText()))
              .as("%s: %s in the future", kind, key)
              .isGreaterThan(System.currentTimeMillis());
        }
        if (key.endsWith("refresh-credentials-endpoint")) {
          assertThat(config.get(key).asText()).as("%s: %s", kind, key).matches(endpoint);
        }
        if (key.endsWith("refresh-credentials-enabled")) {
          assertThat(config.get(key).asText()).as("%s: %s", kind, key).isEqualTo("true");
        }
      }
    }
  }

  private static List<String> names(JsonNode config) {
    List<String> names = new ArrayList<>();
    config.fieldNames().forEachRemaining(names::add);
    return names;
  }
}
