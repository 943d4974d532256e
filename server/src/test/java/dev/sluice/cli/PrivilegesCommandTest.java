package dev.sluice.cli;

import static dev.sluice.cli.Calls.assertCall;
import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

class PrivilegesCommandTest {
  private static final String GRANTS_PATH = "/catalogs/sales/catalog-roles/sales_reader/grants";
  private static final String[] ROLE = {
    "privileges", "--catalog", "sales", "--catalog-role", "sales_reader"
  };

  private FakeServer server;

  @BeforeEach
  void start() throws Exception {
    server = FakeServer.start();
    server.answer("PUT", GRANTS_PATH, 201, null).answer("POST", GRANTS_PATH, 201, null);
  }

  @AfterEach
  void stop() {
    server.close();
  }

  private static String[] role(String... rest) {
    String[] args = new String[ROLE.length + rest.length];
    System.arraycopy(ROLE, 0, args, 0, ROLE.length);
    System.arraycopy(rest, 0, args, ROLE.length, rest.length);
    return args;
  }

  @Test
  void listPrintsOneLinePerGrant() {
    String grants =
        """
        {"grants":[
          {"type":"catalog","privilege":"CATALOG_MANAGE_CONTENT"},
          {"type":"namespace","namespace":["sales","eu"],"privilege":"NAMESPACE_LIST"},
          {"type":"table","namespace":["sales"],"tableName":"orders","privilege":"TABLE_READ_DATA"},
          {"type":"view","namespace":["sales"],"viewName":"daily","privilege":"VIEW_READ_PROPERTIES"}]}""";
    server.answer("GET", GRANTS_PATH, 200, grants);

    Cli.Result result = Cli.run(server, role("list"));

    assertThat(result.exit()).as(result.err()).isZero();
    assertCall(server.onlyCall(), "GET", GRANTS_PATH, null);
    assertThat(result.out())
        .isEqualTo(
            """
        TYPE       SECURABLE     PRIVILEGE
        catalog    -             CATALOG_MANAGE_CONTENT
        namespace  sales.eu      NAMESPACE_LIST
        table      sales.orders  TABLE_READ_DATA
        view       sales.daily   VIEW_READ_PROPERTIES
        """);
    assertThat(Cli.json(server, role("list")).json()).isEqualTo(FakeServer.json(grants));
  }

  @Test
  void catalogGrantAndRevoke() {
    Cli.Result grant = Cli.run(server, role("catalog", "grant", "catalog_manage_content"));
    Cli.Result revoke = Cli.run(server, role("catalog", "revoke", "CATALOG_MANAGE_CONTENT"));

    assertThat(grant.exit()).as(grant.err()).isZero();
    assertThat(revoke.exit()).as(revoke.err()).isZero();
    String body = "{\"grant\":{\"type\":\"catalog\",\"privilege\":\"CATALOG_MANAGE_CONTENT\"}}";
    assertCall(server.calls().get(0), "PUT", GRANTS_PATH, body);
    assertCall(server.calls().get(1), "POST", GRANTS_PATH, body);
    assertThat(grant.out())
        .isEqualTo(
            "granted CATALOG_MANAGE_CONTENT on catalog sales to catalog role sales_reader\n");
    assertThat(revoke.out())
        .isEqualTo(
            "revoked CATALOG_MANAGE_CONTENT on catalog sales from catalog role sales_reader\n");
  }

  @Test
  void namespaceGrantAndRevokeSplitTheDottedName() {
    Cli.Result grant =
        Cli.run(server, role("namespace", "grant", "--namespace", "sales.eu", "TABLE_READ_DATA"));
    Cli.Result revoke =
        Cli.run(server, role("namespace", "revoke", "--namespace", "sales.eu", "TABLE_READ_DATA"));

    String body =
        "{\"grant\":{\"type\":\"namespace\",\"namespace\":[\"sales\",\"eu\"],\"privilege\":\"TABLE_READ_DATA\"}}";
    assertCall(server.calls().get(0), "PUT", GRANTS_PATH, body);
    assertCall(server.calls().get(1), "POST", GRANTS_PATH, body);
    assertThat(grant.out())
        .isEqualTo("granted TABLE_READ_DATA on namespace sales.eu to catalog role sales_reader\n");
    assertThat(revoke.out())
        .isEqualTo(
            "revoked TABLE_READ_DATA on namespace sales.eu from catalog role sales_reader\n");
  }

  @Test
  void tableGrantAndRevoke() {
    Cli.Result grant =
        Cli.run(
            server,
            role(
                "table", "grant", "--namespace", "sales", "--table", "orders", "table_write_data"));
    Cli.Result revoke =
        Cli.run(
            server,
            role(
                "table",
                "revoke",
                "--namespace",
                "sales",
                "--table",
                "orders",
                "TABLE_WRITE_DATA"));

    String body =
        "{\"grant\":{\"type\":\"table\",\"namespace\":[\"sales\"],\"tableName\":\"orders\",\"privilege\":\"TABLE_WRITE_DATA\"}}";
    assertCall(server.calls().get(0), "PUT", GRANTS_PATH, body);
    assertCall(server.calls().get(1), "POST", GRANTS_PATH, body);
    assertThat(grant.out())
        .isEqualTo("granted TABLE_WRITE_DATA on table sales.orders to catalog role sales_reader\n");
    assertThat(revoke.out())
        .isEqualTo(
            "revoked TABLE_WRITE_DATA on table sales.orders from catalog role sales_reader\n");
  }

  @Test
  void viewGrantAndRevoke() {
    Cli.Result grant =
        Cli.run(
            server,
            role(
                "view",
                "grant",
                "--namespace",
                "sales",
                "--view",
                "daily",
                "VIEW_READ_PROPERTIES"));
    Cli.Result revoke =
        Cli.run(
            server,
            role(
                "view",
                "revoke",
                "--namespace",
                "sales",
                "--view",
                "daily",
                "VIEW_READ_PROPERTIES"));

    String body =
        "{\"grant\":{\"type\":\"view\",\"namespace\":[\"sales\"],\"viewName\":\"daily\",\"privilege\":\"VIEW_READ_PROPERTIES\"}}";
    assertCall(server.calls().get(0), "PUT", GRANTS_PATH, body);
    assertCall(server.calls().get(1), "POST", GRANTS_PATH, body);
    assertThat(grant.out())
        .isEqualTo(
            "granted VIEW_READ_PROPERTIES on view sales.daily to catalog role sales_reader\n");
    assertThat(revoke.out())
        .isEqualTo(
            "revoked VIEW_READ_PROPERTIES on view sales.daily from catalog role sales_reader\n");
  }

  @Test
  void theRoleMayAlsoBeNamedAfterTheVerb() {
    Cli.Result result =
        Cli.run(
            server,
            "privileges",
            "namespace",
            "grant",
            "--namespace",
            "sales",
            "TABLE_READ_DATA",
            "--catalog",
            "sales",
            "--catalog-role",
            "sales_reader");

    assertThat(result.exit()).as(result.err()).isZero();
    assertCall(
        server.onlyCall(),
        "PUT",
        GRANTS_PATH,
        "{\"grant\":{\"type\":\"namespace\",\"namespace\":[\"sales\"],\"privilege\":\"TABLE_READ_DATA\"}}");
  }

  @Test
  void namesInThePathAreEncoded() {
    server.answer("GET", "/catalogs/eu%20sales/catalog-roles/r%2F1/grants", 200, "{\"grants\":[]}");

    Cli.Result result =
        Cli.run(server, "privileges", "--catalog", "eu sales", "--catalog-role", "r/1", "list");

    assertThat(result.exit()).as(result.err()).isZero();
    assertThat(result.out()).isEqualTo("no grants\n");
  }

  @Test
  void jsonModePrintsNothingForABodilessGrant() {
    Cli.Result result = Cli.json(server, role("catalog", "grant", "CATALOG_MANAGE_CONTENT"));

    assertThat(result.exit()).as(result.err()).isZero();
    assertThat(result.out()).isEmpty();
  }

  @Test
  void usageErrorsAreExitTwoAndSendNothing() {
    assertThat(Cli.run(server, "privileges", "--catalog", "sales", "list").exit()).isEqualTo(2);
    assertThat(Cli.run(server, role("namespace", "grant", "TABLE_READ_DATA")).exit()).isEqualTo(2);
    Cli.Result badNamespace =
        Cli.run(server, role("namespace", "grant", "--namespace", "a..b", "TABLE_READ_DATA"));
    assertThat(badNamespace.exit()).isEqualTo(2);
    assertThat(badNamespace.err()).contains("'a..b' is not a namespace");
    assertThat(
            Cli.run(server, role("table", "grant", "--namespace", "sales", "TABLE_READ_DATA"))
                .exit())
        .isEqualTo(2);
    assertThat(server.calls()).isEmpty();
    assertThat(server.tokenRequests()).isEmpty();
  }
}
