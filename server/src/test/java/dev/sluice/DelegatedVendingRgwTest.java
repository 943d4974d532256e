package dev.sluice;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import com.nimbusds.jwt.JWTClaimsSet;
import com.nimbusds.jwt.PlainJWT;
import dev.sluice.testing.Admin;
import dev.sluice.testing.NeedsTestBeds;
import dev.sluice.testing.RgwVendingBed;
import dev.sluice.testing.TestServer;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.Date;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.apache.iceberg.DataFile;
import org.apache.iceberg.Table;
import org.apache.iceberg.catalog.SessionCatalog;
import org.apache.iceberg.catalog.TableIdentifier;
import org.apache.iceberg.exceptions.ForbiddenException;
import org.apache.iceberg.rest.RESTCatalog;
import org.apache.iceberg.rest.RESTSessionCatalog;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * One engine connection, many users, on the real Ceph RGW with STS: Iceberg's own {@link
 * RESTSessionCatalog}, configured with the engine principal's credential only, carries each user's
 * token in a {@link SessionCatalog.SessionContext} and exchanges it with the engine's token as
 * actor (RFC 8693), as an agent framework or a multi-user notebook server does. alice (analysts:
 * TABLE_READ_DATA on {@code sales}) reads {@code sales.orders} with a credential vended for her;
 * bob (others: no grant) is refused by Sluice; alice's credential is refused by RGW on {@code
 * fin.ledger}'s file. The STS session carries the user as its name and the engine as a session tag.
 */
@NeedsTestBeds
class DelegatedVendingRgwTest {
  private static final String ACCESS_TOKEN = "urn:ietf:params:oauth:token-type:access_token";
  private static final String JWT = "urn:ietf:params:oauth:token-type:jwt";
  private static RgwVendingBed bed;
  private static TestServer server;
  private static String[] alice;
  private static String[] bob;
  private static String[] engine;
  private static String ordersFile;
  private static String ledgerFile;
  private static RESTSessionCatalog sessions;

  @BeforeAll
  static void start() throws Exception {
    bed = RgwVendingBed.start("deleg", "auth:\n  delegation:\n    unsignedSubjects: true\n", null);
    server = bed.server();
    bed.createCatalog(
        "lake", "wh", "wh", Map.of(), Map.of("sessionTags", List.of("principal", "actor")));
    bed.createNamespace("lake", "sales");
    bed.createNamespace("lake", "fin");
    bed.createTable("lake", "sales", "orders");
    bed.createTable("lake", "fin", "ledger");
    try (RESTCatalog root =
        bed.client("lake", new String[] {TestServer.CLIENT_ID, TestServer.SECRET})) {
      ordersFile = append(root.loadTable(TableIdentifier.of("sales", "orders")), "orders");
      ledgerFile = append(root.loadTable(TableIdentifier.of("fin", "ledger")), "ledger");
    }
    Admin admin = bed.admin();
    alice = admin.principal("alice", "analysts");
    bob = admin.principal("bob", "others");
    engine = admin.principal("engine", "engine_role");
    admin.catalogRole("lake", "sales_readers", "analysts");
    admin.grant(
        "lake",
        "sales_readers",
        Admin.grantJson("namespace", List.of("sales"), null, "TABLE_READ_DATA"));
    for (String target : List.of("analysts", "others")) {
      assertThat(
              server
                  .send(
                      "PUT",
                      "/api/management/v1/principal-roles/engine_role/act-as/" + target,
                      null)
                  .statusCode())
          .isEqualTo(204);
    }
    sessions = new RESTSessionCatalog();
    sessions.initialize(
        "engine",
        Map.of(
            "uri",
            server.catalogUri(),
            "warehouse",
            "lake",
            "credential",
            engine[0] + ":" + engine[1]));
  }

  @AfterAll
  static void stop() throws Exception {
    if (sessions != null) {
      sessions.close();
    }
    bed.close();
  }

  private static String append(Table table, String name) throws Exception {
    DataFile file = RgwVendingBed.writeDataFile(table, name + ".parquet", "rows of " + name);
    table.newAppend().appendFile(file).commit();
    return file.location();
  }

  private static SessionCatalog.SessionContext userSession(
      String user, String tokenType, String token) {
    return new SessionCatalog.SessionContext(
        user + "-" + UUID.randomUUID(), user, Map.of(tokenType, token), Map.of());
  }

  private static String read(Table table, String location) throws Exception {
    try (InputStream in = table.io().newInputFile(location).newStream()) {
      return new String(in.readAllBytes(), StandardCharsets.UTF_8);
    }
  }

  @Test
  void eachUserOfOneEngineConnectionGetsTheirOwnAnswerFromSluiceAndFromTheStore() throws Exception {
    SessionCatalog.SessionContext forAlice =
        userSession("alice", ACCESS_TOKEN, server.token(alice[0], alice[1]));
    Table orders = sessions.loadTable(forAlice, TableIdentifier.of("sales", "orders"));
    assertThat(read(orders, ordersFile)).isEqualTo("rows of orders");
    // alice's credential is scoped to her table: RGW refuses the other table's file.
    RgwVendingBed.assertS3Status(403, () -> read(orders, ledgerFile));
    assertThatThrownBy(() -> sessions.loadTable(forAlice, TableIdentifier.of("fin", "ledger")))
        .isInstanceOf(ForbiddenException.class);

    SessionCatalog.SessionContext forBob =
        userSession("bob", ACCESS_TOKEN, server.token(bob[0], bob[1]));
    assertThatThrownBy(() -> sessions.loadTable(forBob, TableIdentifier.of("sales", "orders")))
        .isInstanceOf(ForbiddenException.class)
        .hasMessageContaining("bob");

    JsonNode events =
        TestServer.json(
                server
                    .send("GET", "/api/management/v1/events?catalog=lake&principal=alice", null)
                    .body())
            .get("events");
    assertThat(events.toString()).contains("\"actor\":\"engine\"");
    JsonNode bobs =
        TestServer.json(
                server
                    .send(
                        "GET",
                        "/api/management/v1/events?catalog=lake&principal=bob&decision=DENY",
                        null)
                    .body())
            .get("events");
    assertThat(bobs.size()).isPositive();
    bobs.forEach(e -> assertThat(e.path("actor").asText()).isEqualTo("engine"));
  }

  @Test
  void anEngineThatAuthenticatedItsUserMayNameItUnsignedAsTrinoDoes() throws Exception {
    String unsigned =
        new PlainJWT(
                new JWTClaimsSet.Builder()
                    .subject("alice")
                    .issuer("476")
                    .issueTime(new Date())
                    .build())
            .serialize();
    Table orders =
        sessions.loadTable(
            userSession("alice", JWT, unsigned), TableIdentifier.of("sales", "orders"));
    assertThat(read(orders, ordersFile)).isEqualTo("rows of orders");
  }
}
