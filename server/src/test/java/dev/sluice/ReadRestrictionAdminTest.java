package dev.sluice;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.sluice.api.Event;
import dev.sluice.api.Grant;
import dev.sluice.api.ReadRestriction;
import dev.sluice.api.TableReadRestrictions;
import dev.sluice.testing.Admin;
import dev.sluice.testing.TestServer;
import java.net.http.HttpResponse;
import java.util.List;
import org.apache.iceberg.Schema;
import org.apache.iceberg.catalog.Namespace;
import org.apache.iceberg.catalog.TableIdentifier;
import org.apache.iceberg.rest.RESTCatalog;
import org.apache.iceberg.types.Types;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The management routes of read restrictions: CATALOG_MANAGE_ACCESS (or the service admin) may
 * list, set and remove them, a reader of the catalog may not; each change audited; every bad value
 * refused with a 400 naming it; names shown against the current schema (a column rename keeps the
 * restriction), and a table rename carries it along.
 */
class ReadRestrictionAdminTest {
  private static final String M = "/api/management/v1";
  private static final Schema SCHEMA =
      new Schema(
          Types.NestedField.required(1, "id", Types.LongType.get()),
          Types.NestedField.optional(2, "region", Types.StringType.get()),
          Types.NestedField.optional(3, "ssn", Types.StringType.get()),
          Types.NestedField.optional(4, "email", Types.StringType.get()),
          Types.NestedField.optional(
              5,
              "address",
              Types.StructType.of(
                  Types.NestedField.optional(6, "city", Types.StringType.get()),
                  Types.NestedField.optional(7, "zip", Types.StringType.get()))),
          Types.NestedField.optional(8, "born", Types.DateType.get()),
          Types.NestedField.optional(
              9, "tags", Types.ListType.ofOptional(10, Types.StringType.get())));

  private static TestServer server;
  private static String catalog;
  private static String managerToken;
  private static String readerToken;
  private static RESTCatalog client;

  @BeforeAll
  static void start() throws Exception {
    server = TestServer.startH2();
    catalog = server.createCatalog("restrict");
    Admin admin = new Admin(server);
    String[] manager = admin.principal("manager", "managers");
    admin.catalogRole(catalog, "managing", "managers");
    admin.grant(catalog, "managing", Grant.onCatalog("CATALOG_MANAGE_ACCESS"));
    managerToken = server.token(manager[0], manager[1]);
    String[] reader = admin.principal("reader", "analysts");
    admin.catalogRole(catalog, "reading", "analysts");
    admin.grant(catalog, "reading", Grant.onCatalog("TABLE_READ_DATA"));
    readerToken = server.token(reader[0], reader[1]);
    client = new RESTCatalog();
    client.initialize("restrict", server.clientProperties(catalog));
    client.createNamespace(Namespace.of("sales"));
    client.createTable(TableIdentifier.of("sales", "orders"), SCHEMA);
  }

  @AfterAll
  static void stop() throws Exception {
    client.close();
    server.close();
  }

  private static String path(String table) {
    return M + "/catalogs/" + catalog + "/namespaces/sales/tables/" + table + "/read-restrictions";
  }

  private static HttpResponse<String> put(String token, String table, String role, String body)
      throws Exception {
    return server.sendAs(token, "PUT", path(table) + "/" + role, body);
  }

  @Test
  void aManagerSetsListsAndRemovesAReaderMayNot() throws Exception {
    String body =
        "{\"rowFilter\": {\"type\": \"eq\", \"term\": \"region\", \"value\": \"EMEA\"},"
            + " \"hiddenColumns\": [\"ssn\", \"address.zip\"],"
            + " \"maskedColumns\": {\"email\": \"mask-alphanum\", \"born\": \"truncate-to-year\"}}";
    HttpResponse<String> refused = put(readerToken, "orders", "analysts", body);
    assertThat(refused.statusCode()).as(refused.body()).isEqualTo(403);
    assertThat(server.sendAs(readerToken, "GET", path("orders"), null).statusCode()).isEqualTo(403);

    HttpResponse<String> set = put(managerToken, "orders", "analysts", body);
    assertThat(set.statusCode()).as(set.body()).isEqualTo(200);
    ReadRestriction shown = Admin.read(set, ReadRestriction.class);
    assertThat(shown.principalRole()).isEqualTo("analysts");
    assertThat(shown.hiddenColumns()).containsExactly("ssn", "address.zip");
    assertThat(shown.maskedColumns())
        .containsEntry("email", "mask-alphanum")
        .containsEntry("born", "truncate-to-year");
    Schema current = client.loadTable(TableIdentifier.of("sales", "orders")).schema();
    assertThat(shown.fieldIds())
        .containsEntry("ssn", 3)
        .containsEntry("address.zip", current.findField("address.zip").fieldId())
        .containsEntry("email", 4)
        .containsEntry("region", 2);
    assertThat(shown.rowFilter().get("term").asText()).isEqualTo("region");

    TableReadRestrictions listed =
        Admin.read(
            server.sendAs(managerToken, "GET", path("orders"), null), TableReadRestrictions.class);
    assertThat(listed.namespace()).containsExactly("sales");
    assertThat(listed.restrictions()).containsExactly(shown);

    // Audited with the restriction before and after.
    List<Event> events = new Admin(server).events("?action=changeTableReadRestriction").events();
    assertThat(events).isNotEmpty();
    assertThat(events.get(0).principal()).isEqualTo("manager");

    assertThat(
            server.sendAs(readerToken, "DELETE", path("orders") + "/analysts", null).statusCode())
        .isEqualTo(403);
    assertThat(
            server.sendAs(managerToken, "DELETE", path("orders") + "/analysts", null).statusCode())
        .isEqualTo(204);
    HttpResponse<String> again =
        server.sendAs(managerToken, "DELETE", path("orders") + "/analysts", null);
    assertThat(again.statusCode()).isEqualTo(404);
    assertThat(again.body()).contains("analysts");
  }

  @Test
  void badValuesAreRefusedNamingThem() throws Exception {
    String root = server.rootToken();
    refused(root, "orders", "analysts", "{\"hiddenColumns\": [\"nope\"]}", 400, "nope");
    refused(root, "orders", "analysts", "{\"maskedColumns\": {\"email\": \"blur\"}}", 400, "blur");
    refused(
        root,
        "orders",
        "analysts",
        "{\"maskedColumns\": {\"email\": \"apply-expression\"}}",
        400,
        "apply-expression");
    refused(
        root,
        "orders",
        "analysts",
        "{\"maskedColumns\": {\"born\": \"show-first-4\"}}",
        400,
        "born");
    refused(
        root,
        "orders",
        "analysts",
        "{\"maskedColumns\": {\"id\": \"replace-with-null\"}}",
        400,
        "required");
    refused(
        root,
        "orders",
        "analysts",
        "{\"hiddenColumns\": [\"address\"], \"maskedColumns\": {\"address.city\": \"mask-alphanum\"}}",
        400,
        "address.city");
    refused(
        root,
        "orders",
        "analysts",
        "{\"hiddenColumns\": [\"id\", \"region\", \"ssn\", \"email\", \"address\", \"born\", \"tags\"]}",
        400,
        "every column");
    refused(root, "orders", "analysts", "{\"hiddenColumns\": [\"tags.element\"]}", 400, "tags");
    refused(
        root,
        "orders",
        "analysts",
        "{\"rowFilter\": {\"type\": \"eq\", \"term\": \"country\", \"value\": \"FR\"}}",
        400,
        "country");
    refused(
        root,
        "orders",
        "analysts",
        "{\"rowFilter\": {\"type\": \"lt\", \"term\": \"born\", \"value\": \"someday\"}}",
        400,
        "someday");
    refused(
        root,
        "orders",
        "analysts",
        "{\"rowFilter\": {\"type\": \"eq\", \"term\": \"ssn\", \"value\": \"1\"},"
            + " \"hiddenColumns\": [\"ssn\"]}",
        400,
        "ssn");
    refused(root, "orders", "analysts", "{\"hidden\": []}", 400, "hidden");
    // A partition source's values are in every file's partition data: never hidden or masked.
    client.createTable(
        TableIdentifier.of("sales", "by_email"),
        SCHEMA,
        org.apache.iceberg.PartitionSpec.builderFor(SCHEMA).identity("email").build());
    refused(
        root, "by_email", "analysts", "{\"hiddenColumns\": [\"email\"]}", 400, "partition source");
    refused(
        root,
        "by_email",
        "analysts",
        "{\"maskedColumns\": {\"email\": \"show-last-4\"}}",
        400,
        "partition source");
    // A sort column cannot be hidden: the caller's engine could not load the table's sort order.
    client
        .buildTable(TableIdentifier.of("sales", "by_birth"), SCHEMA)
        .withSortOrder(org.apache.iceberg.SortOrder.builderFor(SCHEMA).asc("born").build())
        .create();
    refused(root, "by_birth", "analysts", "{\"hiddenColumns\": [\"born\"]}", 400, "sorts");
    refused(root, "missing", "analysts", "{}", 404, "missing");
    refused(root, "orders", "nobody_role", "{}", 404, "nobody_role");
    assertThat(server.sendAs(root, "GET", path("missing"), null).statusCode()).isEqualTo(404);
    assertThat(
            Admin.read(
                    server.sendAs(root, "GET", path("orders"), null), TableReadRestrictions.class)
                .restrictions())
        .as("nothing stored by a refused call")
        .isEmpty();
  }

  @Test
  void aColumnRenameKeepsTheRestrictionAndATableRenameCarriesIt() throws Exception {
    client.createTable(TableIdentifier.of("sales", "leads"), SCHEMA);
    String root = server.rootToken();
    HttpResponse<String> set =
        put(
            root,
            "leads",
            "analysts",
            "{\"rowFilter\": {\"type\": \"eq\", \"term\": \"region\", \"value\": \"EMEA\"},"
                + " \"hiddenColumns\": [\"ssn\"], \"maskedColumns\": {\"email\": \"show-last-4\"}}");
    assertThat(set.statusCode()).as(set.body()).isEqualTo(200);
    client
        .loadTable(TableIdentifier.of("sales", "leads"))
        .updateSchema()
        .renameColumn("ssn", "tax_id")
        .renameColumn("region", "sales_region")
        .commit();
    ReadRestriction renamed =
        Admin.read(server.sendAs(root, "GET", path("leads"), null), TableReadRestrictions.class)
            .restrictions()
            .get(0);
    assertThat(renamed.hiddenColumns()).containsExactly("tax_id");
    assertThat(renamed.rowFilter().get("term").asText()).isEqualTo("sales_region");

    client.renameTable(
        TableIdentifier.of("sales", "leads"), TableIdentifier.of("sales", "leads_2024"));
    assertThat(
            Admin.read(
                    server.sendAs(root, "GET", path("leads_2024"), null),
                    TableReadRestrictions.class)
                .restrictions())
        .extracting(ReadRestriction::principalRole)
        .containsExactly("analysts");
  }

  private static void refused(
      String token, String table, String role, String body, int status, String named)
      throws Exception {
    HttpResponse<String> response = put(token, table, role, body);
    assertThat(response.statusCode()).as(body + " -> " + response.body()).isEqualTo(status);
    JsonNode error = TestServer.json(response.body()).get("error");
    assertThat(error.get("message").asText()).as(body).contains(named);
  }
}
