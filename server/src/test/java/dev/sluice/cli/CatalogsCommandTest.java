package dev.sluice.cli;

import static dev.sluice.cli.Calls.assertCall;
import static org.assertj.core.api.Assertions.assertThat;

import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

class CatalogsCommandTest {
  private static final String SALES =
      """
      {"type":"INTERNAL","name":"sales","properties":{"default-base-location":"file:/data/sales","owner":"bi"},
       "storageConfigInfo":{"storageType":"FILE","allowedLocations":["file:/data/sales","file:/data/shared"]},
       "entityVersion":1}""";

  private FakeServer server;

  @BeforeEach
  void start() throws Exception {
    server = FakeServer.start();
  }

  @AfterEach
  void stop() {
    server.close();
  }

  @Test
  void createSendsPolarisShapedCatalogAndAuthenticatesWithClientCredentials() {
    server.answer("POST", "/catalogs", 201, SALES);

    Cli.Result result =
        Cli.run(
            server,
            "catalogs",
            "create",
            "sales",
            "--storage-type",
            "file",
            "--default-base-location",
            "file:/data/sales",
            "--allowed-location",
            "file:/data/sales",
            "--allowed-location",
            "file:/data/shared",
            "--property",
            "owner=bi");

    assertThat(result.exit()).as(result.err()).isZero();
    assertThat(result.out()).isEqualTo("created catalog sales\n");
    assertThat(result.err()).isEmpty();
    assertCall(
        server.onlyCall(),
        "POST",
        "/catalogs",
        """
        {"catalog":{"name":"sales","type":"INTERNAL",
          "properties":{"default-base-location":"file:/data/sales","owner":"bi"},
          "storageConfigInfo":{"storageType":"FILE","allowedLocations":["file:/data/sales","file:/data/shared"]}}}""");

    FakeServer.Request token = server.tokenRequests().get(0);
    assertThat(token.method()).isEqualTo("POST");
    assertThat(token.contentType()).isEqualTo("application/x-www-form-urlencoded");
    assertThat(token.authorization()).isNull();
    assertThat(token.form())
        .isEqualTo(
            Map.of(
                "grant_type",
                "client_credentials",
                "client_id",
                Cli.CLIENT_ID,
                "client_secret",
                Cli.CLIENT_SECRET,
                "scope",
                "PRINCIPAL_ROLE:ALL"));
  }

  @Test
  void createWithoutAllowedLocationsSendsAnEmptyListAndJsonModePrintsTheServersDocument() {
    server.answer("POST", "/catalogs", 201, SALES);

    Cli.Result result =
        Cli.json(
            server,
            "catalogs",
            "create",
            "sales",
            "--storage-type",
            "FILE",
            "--default-base-location",
            "file:/data/sales");

    assertThat(result.exit()).as(result.err()).isZero();
    assertThat(result.json()).isEqualTo(FakeServer.json(SALES));
    assertCall(
        server.onlyCall(),
        "POST",
        "/catalogs",
        """
        {"catalog":{"name":"sales","type":"INTERNAL","properties":{"default-base-location":"file:/data/sales"},
          "storageConfigInfo":{"storageType":"FILE","allowedLocations":[]}}}""");
  }

  @Test
  void createRequiresStorageTypeAndBaseLocation() {
    Cli.Result result = Cli.run(server, "catalogs", "create", "sales", "--storage-type", "FILE");

    assertThat(result.exit()).isEqualTo(2);
    assertThat(result.err()).contains("--default-base-location");
    assertThat(server.calls()).isEmpty();
  }

  @Test
  void listPrintsATableOrTheServersJson() {
    String list =
        "{\"catalogs\":["
            + SALES
            + ",{\"type\":\"INTERNAL\",\"name\":\"hr\",\"properties\":"
            + "{\"default-base-location\":\"file:/data/hr\"},\"storageConfigInfo\":{\"storageType\":\"FILE\"}}]}";
    server.answer("GET", "/catalogs", 200, list);

    Cli.Result text = Cli.run(server, "catalogs", "list");
    assertThat(text.exit()).as(text.err()).isZero();
    assertThat(text.out())
        .isEqualTo(
            """
        NAME   TYPE      STORAGE  DEFAULT BASE LOCATION
        sales  INTERNAL  FILE     file:/data/sales
        hr     INTERNAL  FILE     file:/data/hr
        """);
    assertCall(server.onlyCall(), "GET", "/catalogs", null);

    Cli.Result json = Cli.json(server, "catalogs", "list");
    assertThat(json.json()).isEqualTo(FakeServer.json(list));
  }

  @Test
  void createExternalSendsTheConnectionAndNeverASecret() {
    String legacy =
        """
        {"type":"EXTERNAL","name":"legacy","properties":{"default-base-location":"s3://lake/legacy"},
         "storageConfigInfo":{"storageType":"FILE","allowedLocations":["s3://lake/legacy"]},
         "connectionConfigInfo":{"connectionType":"ICEBERG_REST","uri":"https://old:8181/api/catalog",
           "remoteCatalogName":"prod","authenticationParameters":{"authenticationType":"OAUTH",
           "clientId":"sluice-federation","scopes":["PRINCIPAL_ROLE:ALL"],"secretReference":"legacy-oauth"},
           "remoteCredentials":"DROP"},
         "entityVersion":1}""";
    server.answer("POST", "/catalogs", 201, legacy);

    Cli.Result result =
        Cli.run(
            server,
            "catalogs",
            "create",
            "legacy",
            "--type",
            "external",
            "--remote-uri",
            "https://old:8181/api/catalog",
            "--remote-catalog",
            "prod",
            "--remote-client-id",
            "sluice-federation",
            "--remote-secret-ref",
            "legacy-oauth",
            "--remote-scope",
            "PRINCIPAL_ROLE:ALL",
            "--storage-type",
            "file",
            "--default-base-location",
            "s3://lake/legacy",
            "--allowed-location",
            "s3://lake/legacy");

    assertThat(result.exit()).as(result.err()).isZero();
    assertCall(
        server.onlyCall(),
        "POST",
        "/catalogs",
        """
        {"catalog":{"name":"legacy","type":"EXTERNAL",
          "properties":{"default-base-location":"s3://lake/legacy"},
          "storageConfigInfo":{"storageType":"FILE","allowedLocations":["s3://lake/legacy"]},
          "connectionConfigInfo":{"connectionType":"ICEBERG_REST","uri":"https://old:8181/api/catalog",
            "remoteCatalogName":"prod","authenticationParameters":{"authenticationType":"OAUTH",
            "clientId":"sluice-federation","scopes":["PRINCIPAL_ROLE:ALL"],
            "secretReference":"legacy-oauth"},"remoteCredentials":"DROP"}}}""");

    server.answer("GET", "/catalogs", 200, "{\"catalogs\":[" + legacy + "]}");
    assertThat(Cli.run(server, "catalogs", "list").out())
        .contains("EXTERNAL")
        .contains("https://old:8181/api/catalog");
  }

  @Test
  void remoteOptionsNeedTypeExternal() {
    Cli.Result result =
        Cli.run(
            server,
            "catalogs",
            "create",
            "x",
            "--remote-uri",
            "https://old/api/catalog",
            "--storage-type",
            "file",
            "--default-base-location",
            "file:/x");
    assertThat(result.exit()).isNotZero();
    assertThat(result.err()).contains("--type external");
  }

  @Test
  void emptyListSaysSo() {
    server.answer("GET", "/catalogs", 200, "{\"catalogs\":[]}");

    assertThat(Cli.run(server, "catalogs", "list").out()).isEqualTo("no catalogs\n");
  }

  @Test
  void getEncodesTheNameAndPrintsKeyValueLines() {
    server.answer("GET", "/catalogs/sales%20eu%2F1", 200, SALES);

    Cli.Result text = Cli.run(server, "catalogs", "get", "sales eu/1");

    assertThat(text.exit()).as(text.err()).isZero();
    assertCall(server.onlyCall(), "GET", "/catalogs/sales%20eu%2F1", null);
    assertThat(text.out())
        .isEqualTo(
            """
        type: INTERNAL
        name: sales
        properties.default-base-location: file:/data/sales
        properties.owner: bi
        storageConfigInfo.storageType: FILE
        storageConfigInfo.allowedLocations: file:/data/sales, file:/data/shared
        entityVersion: 1
        """);
    assertThat(Cli.json(server, "catalogs", "get", "sales eu/1").json())
        .isEqualTo(FakeServer.json(SALES));
  }

  @Test
  void deleteConfirmsInTextAndPrintsNothingInJson() {
    server.answer("DELETE", "/catalogs/sales", 204, null);

    Cli.Result text = Cli.run(server, "catalogs", "delete", "sales");
    assertThat(text.exit()).as(text.err()).isZero();
    assertThat(text.out()).isEqualTo("deleted catalog sales\n");
    assertCall(server.onlyCall(), "DELETE", "/catalogs/sales", null);

    Cli.Result json = Cli.json(server, "catalogs", "delete", "sales");
    assertThat(json.exit()).isZero();
    assertThat(json.out()).isEmpty();
  }
}
