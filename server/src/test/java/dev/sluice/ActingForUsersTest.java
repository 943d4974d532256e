package dev.sluice;

import static dev.sluice.TokenEndpointSecurityTest.ACCESS_TOKEN;
import static dev.sluice.TokenEndpointSecurityTest.EXCHANGE;
import static dev.sluice.TokenEndpointSecurityTest.enc;
import static dev.sluice.TokenEndpointSecurityTest.post;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.tuple;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.spi.ILoggingEvent;
import dev.sluice.api.Event;
import dev.sluice.api.Grant;
import dev.sluice.testing.Admin;
import dev.sluice.testing.LogCapture;
import dev.sluice.testing.TestServer;
import java.net.http.HttpResponse;
import java.util.List;
import java.util.Map;
import java.util.function.Predicate;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.slf4j.LoggerFactory;

/**
 * The PRINCIPAL_ACT_AS grant as the service admin manages it, end to end through the token
 * exchange: without the grant an engine cannot act for a user; granted through the management API,
 * the user's call through the engine is the user's, with the engine named as the actor in the audit
 * trail and in the access log; revoked, the delegated token it holds stops acting at once and no
 * new one is issued.
 */
class ActingForUsersTest {
  private static final String M = "/api/management/v1";
  private static TestServer server;
  private static Admin admin;
  private static String[] alice;
  private static String[] engine;
  private static String orders;

  @BeforeAll
  static void start() throws Exception {
    server = TestServer.startH2();
    admin = new Admin(server);
    String catalog = server.createCatalog("acting");
    String base = "/api/catalog/v1/" + catalog;
    assertThat(
            server.send("POST", base + "/namespaces", "{\"namespace\": [\"sales\"]}").statusCode())
        .isEqualTo(200);
    assertThat(
            server
                .send(
                    "POST",
                    base + "/namespaces/sales/tables",
                    "{\"name\": \"orders\", \"schema\": {\"type\": \"struct\", \"fields\": [{\"id\":"
                        + " 1, \"name\": \"id\", \"required\": true, \"type\": \"long\"}]}}")
                .statusCode())
        .isEqualTo(200);
    orders = base + "/namespaces/sales/tables/orders";
    alice = admin.principal("alice", "analysts");
    engine = admin.principal("engine", "engines");
    admin.catalogRole(catalog, "sales_readers", "analysts");
    admin.grant(catalog, "sales_readers", Grant.onNamespace(List.of("sales"), "TABLE_READ_DATA"));
  }

  @AfterAll
  static void stop() throws Exception {
    server.close();
  }

  private static HttpResponse<String> exchange() throws Exception {
    return post(
        server,
        "grant_type="
            + enc(EXCHANGE)
            + "&subject_token="
            + enc(server.token(alice[0], alice[1]))
            + "&subject_token_type="
            + enc(ACCESS_TOKEN)
            + "&actor_token="
            + enc(server.token(engine[0], engine[1]))
            + "&actor_token_type="
            + enc(ACCESS_TOKEN));
  }

  @Test
  void theServiceAdminsGrantIsWhatLetsAnEngineActForAUser() throws Exception {
    HttpResponse<String> refused = exchange();
    assertThat(refused.statusCode()).as(refused.body()).isEqualTo(400);
    assertThat(refused.body()).contains("unauthorized_client");

    assertThat(
            server.send("PUT", M + "/principal-roles/engines/act-as/analysts", null).statusCode())
        .isEqualTo(204);
    HttpResponse<String> issued = exchange();
    assertThat(issued.statusCode()).as(issued.body()).isEqualTo(200);
    String delegated = TestServer.json(issued.body()).get("access_token").asText();

    Logger accessLog = (Logger) LoggerFactory.getLogger("sluice.access");
    Level level = accessLog.getLevel();
    accessLog.setLevel(Level.INFO); // WARN in logback-test.xml
    try (LogCapture logs = new LogCapture()) {
      assertThat(server.sendAs(delegated, "GET", orders, null).statusCode()).isEqualTo(200);
      // The access line is written after the answer: wait for it.
      Predicate<ILoggingEvent> line =
          e -> {
            Map<String, String> mdc = e.getMDCPropertyMap();
            return e.getLoggerName().equals("sluice.access")
                && "alice".equals(mdc.get("principal"))
                && "engine".equals(mdc.get("actor"));
          };
      long until = System.nanoTime() + 5_000_000_000L;
      while (logs.events().stream().noneMatch(line) && System.nanoTime() < until) {
        Thread.sleep(20);
      }
      assertThat(logs.events()).as("the load's access line names user and engine").anyMatch(line);
      // alice's own call names no actor.
      assertThat(server.sendAs(server.token(alice[0], alice[1]), "GET", orders, null).statusCode())
          .isEqualTo(200);
      Predicate<ILoggingEvent> own =
          e ->
              e.getLoggerName().equals("sluice.access")
                  && "alice".equals(e.getMDCPropertyMap().get("principal"))
                  && !e.getMDCPropertyMap().containsKey("actor");
      until = System.nanoTime() + 5_000_000_000L;
      while (logs.events().stream().noneMatch(own) && System.nanoTime() < until) {
        Thread.sleep(20);
      }
      assertThat(logs.events()).as("alice's own access line, without an actor").anyMatch(own);
    } finally {
      accessLog.setLevel(level);
    }
    assertThat(admin.events("actor=engine").events())
        .filteredOn(e -> e.action().equals("loadTable"))
        .extracting(Event::principal, Event::decision)
        .containsExactly(tuple("alice", "ALLOW"));

    assertThat(
            server
                .send("DELETE", M + "/principal-roles/engines/act-as/analysts", null)
                .statusCode())
        .isEqualTo(204);
    assertThat(server.sendAs(delegated, "GET", orders, null).statusCode())
        .as("the token held acts through no role any more")
        .isEqualTo(403);
    assertThat(exchange().statusCode()).as("and no new one is issued").isEqualTo(400);
  }
}
