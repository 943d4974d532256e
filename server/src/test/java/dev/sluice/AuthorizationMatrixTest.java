package dev.sluice;

import dev.sluice.AuthorizationMatrixFixture.Case;
import dev.sluice.AuthorizationMatrixFixture.Grant;
import dev.sluice.testing.TestServer;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The negative matrix over the Iceberg REST endpoints on namespaces and tables (views: {@link
 * ViewAuthorizationMatrixTest}): for each, a principal without the privilege gets 403 and the
 * catalog is unchanged; with it granted the call succeeds; after the revoke the very next call is
 * 403 again. Each case runs in a fresh catalog. {@link AuthorizationRouteCoverageTest} fails when a
 * route has no row here or in the other matrices.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class AuthorizationMatrixTest {
  static final String SCHEMA =
      "{\"type\":\"struct\",\"schema-id\":0,\"fields\":[{\"id\":1,\"name\":\"id\",\"required\":true,\"type\":\"long\"}]}";
  static final String VIEW_VERSION =
      "{\"version-id\":1,\"timestamp-ms\":1,\"schema-id\":0,\"summary\":{},\"default-namespace\":[\"ns\"],"
          + "\"representations\":[{\"type\":\"sql\",\"sql\":\"select 1\",\"dialect\":\"spark\"}]}";
  static final String SET_PROPS =
      "{\"requirements\": [], \"updates\": [{\"action\": \"set-properties\", \"updates\": {\"k\": \"v\"}}]}";

  /** ns.t to empty.moved. */
  static final String RENAME_T = rename("ns", "t", "empty", "moved");

  private AuthorizationMatrixFixture fx;

  @BeforeAll
  void start() throws Exception {
    fx = new AuthorizationMatrixFixture(startSluice());
  }

  /** The store under test: an H2 file here; the PostgreSQL subclass overrides this. */
  protected TestServer startSluice() throws Exception {
    return TestServer.startH2();
  }

  @AfterAll
  void stop() throws Exception {
    fx.close();
  }

  /** A rename request body (tables and views take the same one). */
  static String rename(String fromNs, String from, String toNs, String to) {
    return "{\"source\": {\"namespace\": [\""
        + fromNs
        + "\"], \"name\": \""
        + from
        + "\"}, \"destination\": {\"namespace\": [\""
        + toNs
        + "\"], \"name\": \""
        + to
        + "\"}}";
  }

  static Stream<Case> cases() {
    List<String> ns = List.of("ns");
    return Stream.of(
        new Case(
            "listNamespaces",
            "NAMESPACE_LIST",
            "catalog",
            null,
            null,
            "GET",
            "/namespaces",
            null,
            200),
        new Case(
            "listNestedNamespaces",
            "NAMESPACE_LIST",
            "namespace",
            ns,
            null,
            "GET",
            "/namespaces?parent=ns",
            null,
            200),
        new Case(
            "createNamespace",
            "NAMESPACE_CREATE",
            "catalog",
            null,
            null,
            "POST",
            "/namespaces",
            "{\"namespace\": [\"made\"]}",
            200),
        new Case(
            "createNestedNamespace",
            "NAMESPACE_CREATE",
            "namespace",
            ns,
            null,
            "POST",
            "/namespaces",
            "{\"namespace\": [\"ns\", \"made\"]}",
            200),
        new Case(
            "loadNamespace",
            "NAMESPACE_READ_PROPERTIES",
            "namespace",
            ns,
            null,
            "GET",
            "/namespaces/ns",
            null,
            200),
        new Case(
            "namespaceExists",
            "NAMESPACE_READ_PROPERTIES",
            "namespace",
            ns,
            null,
            "HEAD",
            "/namespaces/ns",
            null,
            204),
        new Case(
            "updateNamespaceProperties",
            "NAMESPACE_WRITE_PROPERTIES",
            "namespace",
            ns,
            null,
            "POST",
            "/namespaces/ns/properties",
            "{\"updates\": {\"owner\": \"bob\"}}",
            200),
        new Case(
            "dropNamespace",
            "NAMESPACE_DROP",
            "namespace",
            List.of("empty"),
            null,
            "DELETE",
            "/namespaces/empty",
            null,
            204),
        new Case(
            "listTables",
            "TABLE_LIST",
            "namespace",
            ns,
            null,
            "GET",
            "/namespaces/ns/tables",
            null,
            200),
        new Case(
            "createTable",
            "TABLE_CREATE",
            "namespace",
            ns,
            null,
            "POST",
            "/namespaces/ns/tables",
            "{\"name\": \"made\", \"schema\": " + SCHEMA + "}",
            200),
        new Case(
            "stageCreateTable",
            "TABLE_CREATE",
            "namespace",
            ns,
            null,
            "POST",
            "/namespaces/ns/tables",
            "{\"name\": \"staged\", \"stage-create\": true, \"schema\": " + SCHEMA + "}",
            200),
        new Case(
            "loadTable",
            "TABLE_READ_PROPERTIES",
            "table",
            ns,
            "t",
            "GET",
            "/namespaces/ns/tables/t",
            null,
            200),
        new Case(
            "loadTableWithReadData",
            "TABLE_READ_DATA",
            "table",
            ns,
            "t",
            "GET",
            "/namespaces/ns/tables/t",
            null,
            200),
        new Case(
            "tableExists",
            "TABLE_READ_PROPERTIES",
            "table",
            ns,
            "t",
            "HEAD",
            "/namespaces/ns/tables/t",
            null,
            204),
        new Case(
            "updateTableProperties",
            "TABLE_WRITE_PROPERTIES",
            "table",
            ns,
            "t",
            "POST",
            "/namespaces/ns/tables/t",
            SET_PROPS,
            200),
        new Case(
            "dropTable",
            "TABLE_DROP",
            "table",
            ns,
            "t",
            "DELETE",
            "/namespaces/ns/tables/t",
            null,
            204),
        new Case(
            "reportMetrics",
            "TABLE_READ_DATA",
            "table",
            ns,
            "t",
            "POST",
            "/namespaces/ns/tables/t/metrics",
            "{\"report-type\": \"commit-report\", \"table-name\": \"ns.t\", \"snapshot-id\": 1, \"sequence-number\": 1,"
                + " \"operation\": \"append\", \"metrics\": {}}",
            204),
        new Case(
            "commitTransaction",
            "TABLE_WRITE_PROPERTIES",
            "table",
            ns,
            "t",
            "POST",
            "/transactions/commit",
            "{\"table-changes\": [{\"identifier\": {\"namespace\": [\"ns\"], \"name\": \"t\"}, \"requirements\": [],"
                + " \"updates\": [{\"action\": \"set-properties\", \"updates\": {\"k\": \"v\"}}]}]}",
            204),
        new Case(
            "registerTable",
            "TABLE_CREATE",
            "namespace",
            ns,
            null,
            "POST",
            "/namespaces/ns/register",
            "{\"name\": \"registered\", \"metadata-location\": \"{meta}\"}",
            200),
        new Case(
            "renameTable",
            List.of(
                new Grant("table", ns, "t", "TABLE_DROP"),
                new Grant("namespace", List.of("empty"), null, "TABLE_CREATE")),
            "POST",
            "/tables/rename",
            RENAME_T,
            204),
        new Case(
            "loadCredentials",
            "TABLE_READ_PROPERTIES",
            "table",
            ns,
            "t",
            "GET",
            "/namespaces/ns/tables/t/credentials",
            null,
            200),
        new Case(
            "getConfig",
            "TABLE_READ_PROPERTIES",
            "table",
            ns,
            "t",
            "GET",
            "/api/catalog/v1/config?warehouse={c}",
            null,
            200),
        new Case(
            "loadTableViaCatalogGrant",
            "TABLE_READ_PROPERTIES",
            "catalog",
            null,
            null,
            "GET",
            "/namespaces/ns/tables/t",
            null,
            200),
        new Case(
            "loadNestedTableViaNamespaceGrant",
            "TABLE_READ_PROPERTIES",
            "namespace",
            ns,
            null,
            "GET",
            "/namespaces/ns%1Finner/tables/deep",
            null,
            200),
        new Case(
            "loadTableViaManageContent",
            "CATALOG_MANAGE_CONTENT",
            "catalog",
            null,
            null,
            "GET",
            "/namespaces/ns/tables/t",
            null,
            200),
        new Case(
            "updateTableViaWriteData",
            "TABLE_WRITE_DATA",
            "table",
            ns,
            "t",
            "POST",
            "/namespaces/ns/tables/t",
            SET_PROPS,
            200));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("cases")
  void forbiddenWithoutAllowedWithRefusedAfterRevoke(Case c) throws Exception {
    fx.run(c);
  }
}
