package dev.sluice.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** Lists follow the server's page tokens, so a listing shows everything whatever the page size. */
class ListPagingTest {
  private FakeServer server;

  @BeforeEach
  void start() throws Exception {
    server = FakeServer.start();
  }

  @AfterEach
  void stop() {
    server.close();
  }

  private static String principals(String token, String... names) {
    StringBuilder items = new StringBuilder();
    for (String name : names) {
      items
          .append(items.isEmpty() ? "" : ",")
          .append("{\"name\":\"")
          .append(name)
          .append("\",\"id\":\"id-")
          .append(name)
          .append("\",\"clientId\":\"cid-")
          .append(name)
          .append("\",\"createTimestamp\":1}");
    }
    return "{\"principals\":["
        + items
        + "],\"nextPageToken\":"
        + (token == null ? "null" : "\"" + token + "\"")
        + "}";
  }

  @Test
  void principalsListFollowsEveryPageToken() {
    server
        .answer("GET", "/principals", 200, principals("dDE", "ann", "bob"))
        .answer("GET", "/principals?pageToken=dDE", 200, principals("dDI", "cyd"))
        .answer("GET", "/principals?pageToken=dDI", 200, principals(null, "dan"));

    Cli.Result result = Cli.run(server, "principals", "list");

    assertThat(result.exit()).as(result.err()).isZero();
    assertThat(result.out())
        .isEqualTo(
            """
        NAME  CLIENT ID
        ann   cid-ann
        bob   cid-bob
        cyd   cid-cyd
        dan   cid-dan
        """);
    List<FakeServer.Request> calls = server.calls();
    assertThat(calls).extracting(FakeServer.Request::path).containsOnly("/principals");
    assertThat(calls)
        .extracting(FakeServer.Request::query)
        .containsExactly(null, "pageToken=dDE", "pageToken=dDI");
    assertThat(server.tokenRequests()).hasSize(1);

    // json mode: one document with every item, as if the server had sent it whole.
    assertThat(Cli.json(server, "principals", "list").json())
        .isEqualTo(
            FakeServer.json(
                "{\"principals\":"
                    + FakeServer.json(principals(null, "ann", "bob", "cyd", "dan"))
                        .get("principals")
                    + "}"));
  }

  @Test
  void grantsAndRolesFollowPageTokensToo() {
    server
        .answer(
            "GET",
            "/catalogs/sales/catalog-roles/reader/grants",
            200,
            "{\"grants\":[{\"type\":\"catalog\",\"privilege\":\"TABLE_LIST\"}],\"nextPageToken\":\"Zw\"}")
        .answer(
            "GET",
            "/catalogs/sales/catalog-roles/reader/grants?pageToken=Zw",
            200,
            "{\"grants\":[{\"type\":\"namespace\",\"namespace\":[\"a\"],\"privilege\":\"TABLE_READ_DATA\"}],"
                + "\"nextPageToken\":null}")
        .answer(
            "GET",
            "/principal-roles",
            200,
            "{\"roles\":[{\"name\":\"analyst\",\"createTimestamp\":1}],\"nextPageToken\":\"cg\"}")
        .answer(
            "GET",
            "/principal-roles?pageToken=cg",
            200,
            "{\"roles\":[{\"name\":\"loader\",\"createTimestamp\":1}]}");

    Cli.Result grants =
        Cli.run(server, "privileges", "--catalog", "sales", "--catalog-role", "reader", "list");
    assertThat(grants.exit()).as(grants.err()).isZero();
    assertThat(grants.out()).contains("TABLE_LIST").contains("TABLE_READ_DATA");

    Cli.Result roles = Cli.run(server, "principal-roles", "list");
    assertThat(roles.exit()).as(roles.err()).isZero();
    assertThat(roles.out()).isEqualTo("NAME\nanalyst\nloader\n");
  }

  @Test
  void aServerRepeatingATokenIsAnErrorNotALoop() {
    server
        .answer("GET", "/principals", 200, principals("dDE", "ann"))
        .answer("GET", "/principals?pageToken=dDE", 200, principals("dDE", "bob"));

    Cli.Result result = Cli.run(server, "principals", "list");

    assertThat(result.exit()).isNotZero();
    assertThat(result.err()).contains("same page token twice");
    assertThat(server.calls()).hasSize(2);
  }

  private static String events(String token, int... ids) {
    StringBuilder items = new StringBuilder();
    for (int id : ids) {
      items
          .append(items.isEmpty() ? "" : ",")
          .append("{\"id\":")
          .append(id)
          .append(",\"timestamp\":0,\"principal\":\"root\",\"action\":\"createCatalog\",")
          .append("\"catalog\":\"c\",\"securable\":\"c\",\"decision\":\"DENY\",")
          .append("\"count\":1,\"lastTimestamp\":0}");
    }
    return "{\"events\":["
        + items
        + "],\"nextPageToken\":"
        + (token == null ? "null" : "\"" + token + "\"")
        + "}";
  }

  @Test
  void eventsKeepTheirFiltersOnEveryPageAndStopAtTheLimit() {
    String filters = "principal=root&decision=DENY&from=1000";
    server
        .answer("GET", "/events?" + filters, 200, events("p2", 9, 8))
        .answer("GET", "/events?" + filters + "&pageToken=p2", 200, events("p3", 7, 6))
        .answer("GET", "/events?" + filters + "&pageToken=p3", 200, events(null, 5));

    Cli.Result three =
        Cli.json(
            server,
            "events",
            "list",
            "--principal",
            "root",
            "--decision",
            "deny",
            "--from",
            "1000",
            "--limit",
            "3");
    assertThat(three.exit()).as(three.err()).isZero();
    assertThat(three.json().get("events").findValuesAsText("id")).containsExactly("9", "8", "7");
    assertThat(three.json().has("nextPageToken")).isFalse();
    assertThat(server.calls()).hasSize(2);

    Cli.Result all =
        Cli.run(
            server,
            "events",
            "list",
            "--principal",
            "root",
            "--decision",
            "DENY",
            "--from",
            "1970-01-01T00:00:01Z",
            "--limit",
            "0");
    assertThat(all.exit()).as(all.err()).isZero();
    assertThat(all.out())
        .startsWith(
            "TIME                  PRINCIPAL  ACTION         CATALOG  SECURABLE  DECISION\n")
        .contains("1970-01-01T00:00:00Z  root       createCatalog  c        c          DENY");
    assertThat(all.out().lines()).hasSize(6);
  }
}
