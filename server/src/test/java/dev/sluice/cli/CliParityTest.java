package dev.sluice.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.sluice.testing.TestServer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.apache.iceberg.Schema;
import org.apache.iceberg.catalog.TableIdentifier;
import org.apache.iceberg.rest.RESTCatalog;
import org.apache.iceberg.types.Types;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The commands added for parity with the management API (issue 36), against a real in-process
 * server: catalogs update, namespaces, tables, events, signing keys, effective privileges, each in
 * text and json output.
 */
class CliParityTest {
  private static final Schema SCHEMA =
      new Schema(Types.NestedField.required(1, "id", Types.LongType.get()));
  private static TestServer server;
  private static String warehouse;

  @BeforeAll
  static void start() throws Exception {
    server = TestServer.startH2();
    Path dir = server.dataDir().resolve("parity");
    Files.createDirectories(dir);
    warehouse = dir.toUri().toString();
    Cli.ok(
        server,
        "catalogs",
        "create",
        "parity",
        "--storage-type",
        "FILE",
        "--default-base-location",
        warehouse);
  }

  @AfterAll
  static void stop() throws Exception {
    server.close();
  }

  private static Cli.Result ok(String... args) {
    return Cli.ok(server, args);
  }

  private static JsonNode json(String... args) {
    String[] all = java.util.Arrays.copyOf(args, args.length + 2);
    all[args.length] = "--output";
    all[args.length + 1] = "json";
    return ok(all).json();
  }

  @Test
  void catalogsUpdateChangesPropertiesAndSendsTheVersionRead() {
    JsonNode before = json("catalogs", "get", "parity");
    long version = before.get("entityVersion").asLong();

    Cli.Result text = ok("catalogs", "update", "parity", "--property", "owner=bi");
    assertThat(text.out()).isEqualTo("updated catalog parity\n");
    JsonNode updated =
        json(
            "catalogs",
            "update",
            "parity",
            "--property",
            "team=data",
            "--remove-property",
            "owner");

    assertThat(updated.get("entityVersion").asLong()).isEqualTo(version + 2);
    assertThat(updated.at("/properties/team").asText()).isEqualTo("data");
    assertThat(updated.at("/properties").has("owner")).isFalse();
    assertThat(updated.at("/properties/default-base-location").asText()).isEqualTo(warehouse);

    // The server, not the CLI, validates storage keys: a FILE catalog has no role to assume.
    Cli.Result refused = Cli.live(server, "catalogs", "update", "parity", "--storage-type", "S3");
    assertThat(refused.exit()).isEqualTo(1);
    assertThat(refused.err()).contains("storageType").contains("(HTTP 400)");
  }

  @Test
  void namespacesAndTablesThroughTheIcebergApi() throws Exception {
    ok("namespaces", "create", "--catalog", "parity", "sales", "--property", "owner=bi");
    JsonNode created = json("namespaces", "create", "--catalog", "parity", "sales.eu");
    assertThat(created.get("namespace").toString()).isEqualTo("[\"sales\",\"eu\"]");

    assertThat(ok("namespaces", "list", "--catalog", "parity").out())
        .isEqualTo("NAMESPACE\nsales\n");
    assertThat(
            json("namespaces", "list", "--catalog", "parity", "--parent", "sales")
                .get("namespaces")
                .toString())
        .isEqualTo("[[\"sales\",\"eu\"]]");
    assertThat(ok("namespaces", "get", "--catalog", "parity", "sales").out())
        .contains("namespace: sales", "properties.owner: bi");
    assertThat(
            json("namespaces", "get", "--catalog", "parity", "sales")
                .at("/properties/owner")
                .asText())
        .isEqualTo("bi");

    try (RESTCatalog root = new RESTCatalog()) {
      root.initialize(
          "root",
          Map.of(
              "uri",
              server.catalogUri(),
              "warehouse",
              "parity",
              "credential",
              TestServer.CLIENT_ID + ":" + TestServer.SECRET,
              "scope",
              "PRINCIPAL_ROLE:ALL"));
      root.createTable(TableIdentifier.of("sales", "orders"), SCHEMA);
      root.createTable(TableIdentifier.of("sales", "returns"), SCHEMA);
    }
    assertThat(ok("tables", "list", "--catalog", "parity", "--namespace", "sales").out())
        .isEqualTo("NAMESPACE  TABLE\nsales      orders\nsales      returns\n");
    JsonNode tables = json("tables", "list", "--catalog", "parity", "--namespace", "sales");
    assertThat(tables.get("identifiers").findValuesAsText("name"))
        .containsExactlyInAnyOrder("orders", "returns");

    assertThat(ok("tables", "drop", "--catalog", "parity", "--namespace", "sales", "orders").out())
        .isEqualTo("dropped table sales.orders of catalog parity\n");
    assertThat(
            ok(
                    "tables",
                    "drop",
                    "--catalog",
                    "parity",
                    "--namespace",
                    "sales",
                    "returns",
                    "--purge")
                .out())
        .isEqualTo("purged table sales.returns of catalog parity\n");
    assertThat(ok("tables", "list", "--catalog", "parity", "--namespace", "sales").out())
        .isEqualTo("no tables\n");

    Cli.Result notEmpty = Cli.live(server, "namespaces", "drop", "--catalog", "parity", "sales");
    assertThat(notEmpty.exit()).isEqualTo(1);
    assertThat(notEmpty.err()).contains("(HTTP 409)");
    ok("namespaces", "drop", "--catalog", "parity", "sales.eu");
    ok("namespaces", "drop", "--catalog", "parity", "sales", "--yes");
    assertThat(ok("namespaces", "list", "--catalog", "parity").out()).isEqualTo("no namespaces\n");

    Cli.Result unknown = Cli.live(server, "namespaces", "list", "--catalog", "nope");
    assertThat(unknown.exit()).isEqualTo(1);
    assertThat(unknown.err()).contains("nope");
  }

  @Test
  void eventsListFiltersAndPages() {
    ok("namespaces", "list", "--catalog", "parity");
    for (String role : List.of("audited1", "audited2", "audited3")) {
      ok("principal-roles", "create", role);
    }
    JsonNode all = json("events", "list", "--limit", "0");
    assertThat(all.get("events").size()).isGreaterThanOrEqualTo(3);
    assertThat(all.has("nextPageToken")).isFalse();

    String root = all.at("/events/0/principal").asText();
    JsonNode two = json("events", "list", "--limit", "2", "--principal", root);
    assertThat(two.get("events")).hasSize(2);
    two.get("events").forEach(e -> assertThat(e.get("principal").asText()).isEqualTo(root));

    JsonNode denied = json("events", "list", "--decision", "deny", "--from", "2000-01-01");
    denied.get("events").forEach(e -> assertThat(e.get("decision").asText()).isEqualTo("DENY"));
    assertThat(json("events", "list", "--to", "0").get("events")).isEmpty();

    assertThat(ok("events", "list", "--catalog", "parity", "--limit", "1").out())
        .startsWith("TIME")
        .contains("parity");

    Cli.Result badTime = Cli.live(server, "events", "list", "--from", "yesterday");
    assertThat(badTime.exit()).isEqualTo(2);
    assertThat(badTime.err()).contains("is not a time");
  }

  @Test
  void signingKeysRotateListAndRetire() {
    String kid = json("signing-keys", "rotate").get("kid").asText();
    JsonNode keys = json("signing-keys", "list");
    assertThat(keys.get("keys").get(0).get("kid").asText()).isEqualTo(kid);
    assertThat(keys.get("keys").get(0).get("active").asBoolean()).isTrue();
    String older = keys.get("keys").get(1).get("kid").asText();
    assertThat(ok("signing-keys", "list").out()).startsWith("KID").contains(kid + " ");

    // The active key cannot be retired: the server says why.
    Cli.Result active = Cli.live(server, "signing-keys", "retire", kid, "--yes");
    assertThat(active.exit()).isEqualTo(1);
    assertThat(active.err()).contains("(HTTP 400)");
    assertThat(ok("signing-keys", "retire", older).out())
        .isEqualTo("retired signing key " + older + "\n");
    assertThat(json("signing-keys", "list").get("keys").findValuesAsText("kid"))
        .doesNotContain(older);
  }

  @Test
  void effectivePrivilegesShowTheChain() {
    ok("principal-roles", "create", "readers");
    ok("catalog-roles", "create", "--catalog", "parity", "sales_reader");
    ok(
        "privileges",
        "--catalog",
        "parity",
        "--catalog-role",
        "sales_reader",
        "namespace",
        "grant",
        "--namespace",
        "eff",
        "TABLE_READ_DATA");
    ok(
        "catalog-roles",
        "grant",
        "--catalog",
        "parity",
        "--principal-role",
        "readers",
        "sales_reader");
    ok("principals", "create", "--principal-role", "readers", "reader");

    String[] query = {
      "privileges",
      "--catalog",
      "parity",
      "effective",
      "--principal",
      "reader",
      "--type",
      "table",
      "--namespace",
      "eff",
      "--name",
      "t"
    };
    JsonNode explained = json(query);
    assertThat(explained.get("privileges").findValuesAsText("privilege"))
        .contains("TABLE_READ_DATA", "TABLE_READ_PROPERTIES");
    assertThat(explained.at("/privileges/0/via/0/catalogRole").asText()).isEqualTo("sales_reader");
    assertThat(ok(query).out())
        .startsWith("PRIVILEGE")
        .contains("TABLE_READ_DATA", "readers", "sales_reader", "TABLE_READ_DATA on namespace eff");

    Cli.Result none =
        ok(
            "privileges",
            "--catalog",
            "parity",
            "effective",
            "--principal",
            "reader",
            "--type",
            "catalog");
    assertThat(none.out()).isEqualTo("principal reader holds no privilege on this securable\n");

    Cli.Result noCatalog =
        Cli.live(server, "privileges", "effective", "--principal", "reader", "--type", "catalog");
    assertThat(noCatalog.exit()).isEqualTo(2);
    assertThat(noCatalog.err()).contains("--catalog");
  }

  @Test
  void revokingTheLastManageAccessGrantNeedsForce() throws Exception {
    Path dir = Files.createDirectories(server.dataDir().resolve("lockout"));
    ok(
        "catalogs",
        "create",
        "lockout",
        "--storage-type",
        "FILE",
        "--default-base-location",
        dir.toUri().toString());
    List<String> revoke =
        List.of(
            "privileges",
            "--catalog",
            "lockout",
            "--catalog-role",
            "catalog_admin",
            "catalog",
            "revoke",
            "CATALOG_MANAGE_ACCESS");
    Cli.Result refused = Cli.live(server, revoke.toArray(String[]::new));
    assertThat(refused.exit()).isEqualTo(1);
    assertThat(refused.err()).contains("force=true");
    List<String> forced = new java.util.ArrayList<>(revoke);
    forced.add("--force");
    assertThat(ok(forced.toArray(String[]::new)).out())
        .isEqualTo(
            "revoked CATALOG_MANAGE_ACCESS on catalog lockout from catalog role catalog_admin\n");
  }
}
