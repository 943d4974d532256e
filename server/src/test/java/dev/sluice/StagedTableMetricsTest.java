package dev.sluice;

import static dev.sluice.AuthorizationMatrixTest.SCHEMA;
import static org.assertj.core.api.Assertions.assertThat;

import dev.sluice.testing.Admin;
import dev.sluice.testing.TestServer;
import java.net.http.HttpResponse;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;

/**
 * A staged create's append reports its commit before the create commits (Spark's CREATE TABLE AS
 * SELECT): the report is accepted and discarded for a caller who may create the table, instead of a
 * 404 that makes the engine log a warning with a stack trace for every CTAS. Anyone else still gets
 * the 404 for a name that is no table.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class StagedTableMetricsTest {
  private TestServer server;
  private String base;
  private String creator;
  private String reader;

  @BeforeAll
  void start() throws Exception {
    server = TestServer.startH2();
    String catalog = server.createCatalog("staged_metrics");
    base = "/api/catalog/v1/" + catalog + "/namespaces/";
    assertThat(
            server
                .send(
                    "POST",
                    "/api/catalog/v1/" + catalog + "/namespaces",
                    "{\"namespace\": [\"ns\"]}")
                .statusCode())
        .isEqualTo(200);
    Admin admin = new Admin(server);
    String[] c = admin.principal("creator", "creators");
    admin.catalogRole(catalog, "creating", "creators");
    for (String privilege : List.of("TABLE_CREATE", "TABLE_WRITE_DATA")) {
      admin.grant(
          catalog, "creating", Admin.grantJson("namespace", List.of("ns"), null, privilege));
    }
    creator = server.token(c[0], c[1]);
    String[] r = admin.principal("reader", "readers");
    admin.catalogRole(catalog, "reading", "readers");
    admin.grant(
        catalog, "reading", Admin.grantJson("namespace", List.of("ns"), null, "TABLE_READ_DATA"));
    reader = server.token(r[0], r[1]);
  }

  @AfterAll
  void stop() throws Exception {
    server.close();
  }

  private static String commitReport(String table) {
    return "{\"report-type\": \"commit-report\", \"table-name\": \""
        + table
        + "\", \"snapshot-id\": 1, \"sequence-number\": 1, \"operation\": \"append\","
        + " \"metrics\": {}}";
  }

  @Test
  void aStagedTablesReportIsAcceptedFromItsCreatorAndNothingIsCreated() throws Exception {
    HttpResponse<String> staged =
        server.sendAs(
            creator,
            "POST",
            base + "ns/tables",
            "{\"name\": \"ctas\", \"schema\": " + SCHEMA + ", \"stage-create\": true}");
    assertThat(staged.statusCode()).as(staged.body()).isEqualTo(200);

    HttpResponse<String> report =
        server.sendAs(creator, "POST", base + "ns/tables/ctas/metrics", commitReport("ns.ctas"));
    assertThat(report.statusCode()).as(report.body()).isEqualTo(204);
    // Discarded: the staged table still does not exist.
    assertThat(server.sendAs(creator, "HEAD", base + "ns/tables/ctas", null).statusCode())
        .isEqualTo(404);
  }

  @Test
  void aCallerWhoCannotCreateTheTableStillGets404() throws Exception {
    HttpResponse<String> report =
        server.sendAs(
            reader, "POST", base + "ns/tables/nothing/metrics", commitReport("ns.nothing"));
    assertThat(report.statusCode()).as(report.body()).isEqualTo(404);
    assertThat(report.body()).contains("NoSuchTableException");
  }

  @Test
  void aMalformedReportIsStill400() throws Exception {
    HttpResponse<String> report =
        server.sendAs(creator, "POST", base + "ns/tables/ctas2/metrics", "{\"report-type\": 5}");
    assertThat(report.statusCode()).as(report.body()).isEqualTo(400);
  }
}
