package dev.sluice.testing;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.sluice.catalog.CatalogSettings;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.atomic.AtomicInteger;
import org.apache.iceberg.DataFile;
import org.apache.iceberg.DataFiles;
import org.apache.iceberg.FileFormat;
import org.apache.iceberg.PartitionSpec;
import org.apache.iceberg.Schema;
import org.apache.iceberg.Table;
import org.apache.iceberg.catalog.Namespace;
import org.apache.iceberg.catalog.TableIdentifier;
import org.apache.iceberg.rest.RESTCatalog;
import org.apache.iceberg.types.Types;

/**
 * The scene of the scope-integrity attacks: one storage root holding a warehouse and an "outside"
 * area, catalog {@link #a} (base {@code wh/a}, allowed: the warehouse and the outside area) with a
 * {@code victim} namespace (tables t1, t2 with data, view v) and an {@code attacker} namespace;
 * catalog {@link #b} sharing {@link #a}'s base; catalog {@link #u} with unstructured locations
 * allowed over the whole storage root. The attacker principal holds table, view and
 * namespace-property privileges on {@code attacker} in a, on {@code victim} in b and on {@code ns}
 * in u, and nothing on a's {@code victim}.
 */
public final class ScopeFixture implements AutoCloseable {
  public static final ObjectMapper JSON = new ObjectMapper();
  public static final Schema SCHEMA =
      new Schema(Types.NestedField.required(1, "id", Types.LongType.get()));
  public static final String SCHEMA_JSON =
      "{\"type\":\"struct\",\"schema-id\":0,\"fields\":[{\"id\":1,\"name\":\"id\",\"required\":true,\"type\":\"long\"}]}";
  static final List<String> ATTACKER_PRIVILEGES =
      List.of(
          "TABLE_CREATE",
          "TABLE_WRITE_DATA",
          "TABLE_WRITE_PROPERTIES",
          "TABLE_READ_DATA",
          "TABLE_DROP",
          "VIEW_CREATE",
          "VIEW_WRITE_PROPERTIES",
          "VIEW_DROP",
          "NAMESPACE_WRITE_PROPERTIES");

  public final TestServer server;
  public final Path root;
  public final Path warehouse;
  public final Path outside;
  public final Path secret;
  public final String a;
  public final String b;
  public final String u;
  public final String attackerToken;
  public final String[] attackerCredentials;

  /** Where things are, as locations ({@code file:/...}, no trailing slash). */
  public final Map<String, String> where = new LinkedHashMap<>();

  /**
   * victim.t1's files that an attacker must never reach: current and previous metadata, manifest
   * list, data.
   */
  public String t1Metadata;

  public List<String> t1PreviousMetadata = new ArrayList<>();
  public String t1ManifestList;
  public Path t1Data;
  private final AtomicInteger names = new AtomicInteger();

  public ScopeFixture(TestServer server) throws Exception {
    this.server = server;
    this.root = server.dataDir().resolve("storage");
    this.warehouse = root.resolve("wh");
    this.outside = root.resolve("outside");
    Path baseA = warehouse.resolve("a");
    Files.createDirectories(outside.resolve("secret"));
    secret = outside.resolve("secret").resolve("keys.bin");
    Files.writeString(secret, "outside secret");
    a = server.createCatalog("a", List.of(uri(warehouse), uri(outside)), baseA);
    b = server.createCatalog("b", List.of(uri(warehouse)), baseA);
    u =
        server.createCatalog(
            "u",
            List.of(uri(root)),
            root.resolve("u"),
            Map.of(CatalogSettings.ALLOW_UNSTRUCTURED_LOCATIONS, "true"));

    Admin admin = new Admin(server);
    attackerCredentials = admin.principal("attacker", "attacker_role");
    attackerToken = server.token(attackerCredentials[0], attackerCredentials[1]);
    admin.catalogRole(a, "attacker_cr", "attacker_role");
    admin.catalogRole(b, "attacker_cr", "attacker_role");
    admin.catalogRole(u, "attacker_cr", "attacker_role");
    for (String privilege : ATTACKER_PRIVILEGES) {
      admin.grant(
          a, "attacker_cr", Admin.grantJson("namespace", List.of("attacker"), null, privilege));
      admin.grant(b, "attacker_cr", Admin.grantJson("namespace", List.of("bown"), null, privilege));
      admin.grant(u, "attacker_cr", Admin.grantJson("namespace", List.of("ns"), null, privilege));
    }
    for (String[] ns :
        List.of(
            new String[] {a, "victim"},
            new String[] {a, "attacker"},
            new String[] {a, "attacker", "sub"},
            new String[] {b, "bown"},
            new String[] {u, "ns"})) {
      Map<String, Object> body = Map.of("namespace", List.of(ns).subList(1, ns.length));
      assertOk(server.send("POST", api(ns[0]) + "/namespaces", json(body)));
    }
    victim();
    where.put("storage root", uri(root));
    where.put("warehouse root", uri(warehouse));
    where.put("catalog base", uri(baseA));
    where.put("victim namespace", uri(baseA.resolve("victim")));
    where.put("attacker namespace", uri(baseA.resolve("attacker")));
    where.put("outside", uri(outside));
    where.put("outside secret", uri(outside.resolve("secret")));
    JsonNode own =
        assertOk(
            asAttacker(
                "POST",
                api(a) + "/namespaces/attacker/tables",
                createBody("own", null, Map.of(), false)));
    where.put("attacker.own", strip(own.get("metadata").get("location").asText()));
    JsonNode own2 =
        assertOk(
            asAttacker(
                "POST",
                api(a) + "/namespaces/attacker/tables",
                createBody("own2", null, Map.of(), false)));
    where.put("attacker.own2", strip(own2.get("metadata").get("location").asText()));
    JsonNode view =
        assertOk(
            asAttacker(
                "POST",
                api(a) + "/namespaces/attacker/views",
                viewBody("ownview", null, Map.of())));
    where.put("attacker.ownview", strip(view.get("metadata").get("location").asText()));
  }

  /**
   * victim.t1 and victim.t2 with two appended data files each, view victim.v: made by root through
   * Iceberg's client.
   */
  private void victim() throws Exception {
    try (RESTCatalog catalog = new RESTCatalog()) {
      Map<String, String> props = new HashMap<>(server.clientProperties(a));
      props.put("io-impl", LocalDiskFileIO.class.getName());
      catalog.initialize("root", props);
      for (String name : List.of("t1", "t2")) {
        Table table = catalog.createTable(TableIdentifier.of("victim", name), SCHEMA);
        for (int i = 0; i < 2; i++) {
          Path data = localPath(table.location()).resolve("data").resolve("part-" + i + ".parquet");
          Files.createDirectories(data.getParent());
          Files.writeString(data, "victim " + name + " data " + i);
          table
              .newAppend()
              .appendFile(dataFile(data.toUri().toString(), Files.size(data)))
              .commit();
        }
        where.put("victim." + name, strip(table.location()));
      }
      catalog
          .buildView(TableIdentifier.of("victim", "v"))
          .withSchema(SCHEMA)
          .withDefaultNamespace(Namespace.of("victim"))
          .withQuery("spark", "select 1")
          .create();
    }
    JsonNode t1 = assertOk(server.send("GET", api(a) + "/namespaces/victim/tables/t1", null));
    t1Metadata = t1.get("metadata-location").asText();
    t1.get("metadata")
        .get("metadata-log")
        .forEach(entry -> t1PreviousMetadata.add(entry.get("metadata-file").asText()));
    JsonNode snapshots = t1.get("metadata").get("snapshots");
    t1ManifestList = snapshots.get(snapshots.size() - 1).get("manifest-list").asText();
    t1Data = localPath(where.get("victim.t1")).resolve("data").resolve("part-0.parquet");
    JsonNode v = assertOk(server.send("GET", api(a) + "/namespaces/victim/views/v", null));
    where.put("victim.v", strip(v.get("metadata").get("location").asText()));
  }

  public static DataFile dataFile(String path, long size) {
    return DataFiles.builder(PartitionSpec.unpartitioned())
        .withPath(path)
        .withFileSizeInBytes(size)
        .withRecordCount(1)
        .withFormat(FileFormat.PARQUET)
        .build();
  }

  /** A location this fixture named ({@link #where}); fails on a typo. */
  public String at(String name) {
    String location = where.get(name);
    assertThat(location).as("fixture location " + name).isNotNull();
    return location;
  }

  public String api(String catalog) {
    return "/api/catalog/v1/" + catalog;
  }

  /** A name no other case uses, so a case that wrongly succeeds cannot disturb another. */
  public String fresh(String prefix) {
    return prefix + names.incrementAndGet();
  }

  public HttpResponse<String> asAttacker(String method, String path, String body) throws Exception {
    return server.sendAs(attackerToken, method, path, body);
  }

  /** Iceberg client properties acting as the attacker in {@code catalog}. */
  public Map<String, String> attackerClient(String catalog) {
    Map<String, String> props = new HashMap<>(server.clientProperties(catalog));
    props.put("credential", attackerCredentials[0] + ":" + attackerCredentials[1]);
    props.put("io-impl", LocalDiskFileIO.class.getName());
    return props;
  }

  /**
   * Everything an attack could touch: the three catalogs in the store, and every file under the
   * storage root.
   */
  public String state() {
    return CatalogSnapshot.of(server.server().store(), List.of(a, b, u))
        + FileTreeSnapshot.of(root);
  }

  /**
   * Runs {@code attack}, asserts that it was refused with one of {@code statuses} and a well-formed
   * Iceberg ErrorResponse, and that nothing in the store or on disk changed.
   */
  public JsonNode refusedAndUnchanged(Set<Integer> statuses, Attack attack) throws Exception {
    return refusedAndUnchanged(statuses, List.of("victim.t1", "victim.t2", "victim.v"), attack);
  }

  /**
   * As above; the refusal's message must not contain any of {@code unnamed} (whose place it would
   * take).
   */
  public JsonNode refusedAndUnchanged(Set<Integer> statuses, List<String> unnamed, Attack attack)
      throws Exception {
    String before = state();
    HttpResponse<String> response = attack.send();
    JsonNode error = assertError(response, statuses);
    assertThat(error.get("message").asText())
        .as("the refusal does not name the other table")
        .doesNotContain(unnamed);
    assertThat(state()).as("a refused request changes nothing").isEqualTo(before);
    return error;
  }

  /** The ErrorResponse of a refusal; a location refusal never names the table it would overlap. */
  public static JsonNode assertError(HttpResponse<String> response, Set<Integer> statuses)
      throws Exception {
    assertThat(response.statusCode()).as(response.body()).isIn(statuses);
    JsonNode error = TestServer.json(response.body()).get("error");
    assertThat(error).as(response.body()).isNotNull();
    assertThat(error.get("code").asInt()).isEqualTo(response.statusCode());
    assertThat(error.get("type").asText()).isNotBlank().isNotEqualTo("InternalServerError");
    assertThat(error.get("message").asText()).isNotBlank().doesNotContain("Exception:", "\tat ");
    if (response.statusCode() == 403) {
      assertThat(error.get("type").asText()).isEqualTo("ForbiddenException");
    }
    return error;
  }

  public static JsonNode assertOk(HttpResponse<String> response) throws Exception {
    assertThat(response.statusCode()).as(response.body()).isBetween(200, 204);
    return response.body().isEmpty() ? null : TestServer.json(response.body());
  }

  public static String json(Object body) throws Exception {
    return JSON.writeValueAsString(body);
  }

  /** A create-table body; {@code location} null for the default one. */
  public static String createBody(
      String name, String location, Map<String, String> properties, boolean stage)
      throws Exception {
    Map<String, Object> body = new LinkedHashMap<>();
    body.put("name", name);
    body.put("schema", JSON.readTree(SCHEMA_JSON));
    if (location != null) {
      body.put("location", location);
    }
    body.put("properties", properties);
    if (stage) {
      body.put("stage-create", true);
    }
    return json(body);
  }

  public static String viewBody(String name, String location, Map<String, String> properties)
      throws Exception {
    Map<String, Object> body = new LinkedHashMap<>();
    body.put("name", name);
    body.put("schema", JSON.readTree(SCHEMA_JSON));
    body.put(
        "view-version",
        JSON.readTree(
            "{\"version-id\":1,\"timestamp-ms\":1,\"schema-id\":0,\"summary\":{},\"default-namespace\":[\"attacker\"],"
                + "\"representations\":[{\"type\":\"sql\",\"sql\":\"select 1\",\"dialect\":\"spark\"}]}"));
    if (location != null) {
      body.put("location", location);
    }
    body.put("properties", properties);
    return json(body);
  }

  /** A commit body with no requirements and the given updates. */
  public static String commitBody(Object... updates) throws Exception {
    return json(Map.of("requirements", List.of(), "updates", List.of(updates)));
  }

  public static Map<String, Object> setLocation(String location) {
    return Map.of("action", "set-location", "location", location);
  }

  public static Map<String, Object> setProperties(Map<String, String> updates) {
    return Map.of("action", "set-properties", "updates", updates);
  }

  public static Map<String, Object> removeProperties(String... keys) {
    return Map.of("action", "remove-properties", "removals", List.of(keys));
  }

  public static String uri(Path path) {
    return strip(path.toUri().toString());
  }

  public static String strip(String location) {
    return location.endsWith("/") ? location.substring(0, location.length() - 1) : location;
  }

  /** The local path of a {@code file:} location in any of its spellings. */
  public static Path localPath(String location) {
    return Path.of(location.replaceFirst("^file:(//)?", ""));
  }

  @Override
  public void close() throws Exception {
    server.close();
  }

  /** One attack: a request whose answer must be a refusal. */
  @FunctionalInterface
  public interface Attack {
    HttpResponse<String> send() throws Exception;
  }
}
