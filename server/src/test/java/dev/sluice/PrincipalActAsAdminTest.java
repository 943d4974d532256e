package dev.sluice;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.tuple;

import com.fasterxml.jackson.databind.JsonNode;
import dev.sluice.api.ActAsTargets;
import dev.sluice.api.Event;
import dev.sluice.store.AuditEvent;
import dev.sluice.testing.Admin;
import dev.sluice.testing.TestServer;
import java.net.http.HttpResponse;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The PRINCIPAL_ACT_AS grant's management routes as the service admin uses them: granted
 * idempotently, listed, revoked once, refused for service_admin, the role itself and missing roles,
 * gone with a deleted role, every call audited under its action. And the audit event's actor: in
 * the events API, filterable, absent where there is none. Who may call the routes is {@code
 * ManagementAuthorizationMatrixTest}'s.
 */
class PrincipalActAsAdminTest {
  private static final String M = "/api/management/v1";
  private static TestServer server;
  private static Admin admin;

  @BeforeAll
  static void start() throws Exception {
    server = TestServer.startH2();
    admin = new Admin(server);
    for (String role : List.of("engines", "analysts", "finance", "interns")) {
      assertThat(
              server
                  .send("POST", M + "/principal-roles", Admin.principalRoleJson(role))
                  .statusCode())
          .isEqualTo(201);
    }
  }

  @AfterAll
  static void stop() throws Exception {
    server.close();
  }

  private static int status(String method, String path) throws Exception {
    return server.send(method, M + path, null).statusCode();
  }

  private static List<String> targets(String role) throws Exception {
    HttpResponse<String> listed =
        server.send("GET", M + "/principal-roles/" + role + "/act-as", null);
    assertThat(listed.statusCode()).as(listed.body()).isEqualTo(200);
    return Admin.read(listed, ActAsTargets.class).targets();
  }

  @Test
  void grantedIdempotentlyListedAndRevokedOnce() throws Exception {
    assertThat(targets("engines")).isEmpty();
    assertThat(status("PUT", "/principal-roles/engines/act-as/finance")).isEqualTo(204);
    assertThat(status("PUT", "/principal-roles/engines/act-as/analysts")).isEqualTo(204);
    assertThat(status("PUT", "/principal-roles/engines/act-as/analysts"))
        .as("granting again changes nothing")
        .isEqualTo(204);
    assertThat(targets("engines")).containsExactly("analysts", "finance");
    assertThat(targets("analysts")).as("a grant has a direction").isEmpty();

    assertThat(status("DELETE", "/principal-roles/engines/act-as/finance")).isEqualTo(204);
    HttpResponse<String> again =
        server.send("DELETE", M + "/principal-roles/engines/act-as/finance", null);
    assertThat(again.statusCode()).isEqualTo(404);
    assertThat(again.body()).contains("NotFoundException").contains("finance");
    assertThat(targets("engines")).containsExactly("analysts");

    List<Event> events =
        admin
            .events("principal=root&securable=principal-role%20engines%20act-as%20finance")
            .events();
    assertThat(events)
        .extracting(Event::action, Event::status)
        .contains(tuple("grantActAs", 204), tuple("revokeActAs", 204), tuple("revokeActAs", 404));
    assertThat(admin.events("securable=principal-role%20engines").events())
        .extracting(Event::action)
        .contains("listActAsTargets");
  }

  @Test
  void serviceAdminTheRoleItselfAndMissingRolesAreRefusedAndStoreNothing() throws Exception {
    assertThat(status("PUT", "/principal-roles/interns/act-as/analysts")).isEqualTo(204);
    List<String> before = targets("interns");

    HttpResponse<String> toAdmin =
        server.send("PUT", M + "/principal-roles/interns/act-as/service_admin", null);
    assertThat(toAdmin.statusCode()).as(toAdmin.body()).isEqualTo(400);
    assertThat(toAdmin.body()).contains("BadRequestException").contains("service_admin");
    HttpResponse<String> itself =
        server.send("PUT", M + "/principal-roles/interns/act-as/interns", null);
    assertThat(itself.statusCode()).as(itself.body()).isEqualTo(400);
    assertThat(itself.body()).contains("interns");
    HttpResponse<String> missingTarget =
        server.send("PUT", M + "/principal-roles/interns/act-as/nobody_role", null);
    assertThat(missingTarget.statusCode()).as(missingTarget.body()).isEqualTo(404);
    assertThat(missingTarget.body()).contains("nobody_role");
    assertThat(status("PUT", "/principal-roles/nobody_role/act-as/analysts")).isEqualTo(404);
    assertThat(status("GET", "/principal-roles/nobody_role/act-as")).isEqualTo(404);
    assertThat(status("DELETE", "/principal-roles/interns/act-as/service_admin")).isEqualTo(404);

    assertThat(targets("interns")).isEqualTo(before).containsExactly("analysts");
    // service_admin itself may hold act-as targets: only as a target is it refused.
    assertThat(status("PUT", "/principal-roles/service_admin/act-as/interns")).isEqualTo(204);
    assertThat(status("DELETE", "/principal-roles/service_admin/act-as/interns")).isEqualTo(204);
  }

  @Test
  void deletingARoleTakesItsGrantsBothWays() throws Exception {
    for (String role : List.of("bi_engine", "temps")) {
      assertThat(
              server
                  .send("POST", M + "/principal-roles", Admin.principalRoleJson(role))
                  .statusCode())
          .isEqualTo(201);
    }
    assertThat(status("PUT", "/principal-roles/bi_engine/act-as/temps")).isEqualTo(204);
    assertThat(status("PUT", "/principal-roles/bi_engine/act-as/finance")).isEqualTo(204);
    assertThat(status("PUT", "/principal-roles/temps/act-as/finance")).isEqualTo(204);

    assertThat(status("DELETE", "/principal-roles/temps")).isEqualTo(204);
    assertThat(targets("bi_engine")).containsExactly("finance");
    assertThat(
            server
                .send("POST", M + "/principal-roles", Admin.principalRoleJson("temps"))
                .statusCode())
        .isEqualTo(201);
    assertThat(targets("temps")).as("a role created again starts without grants").isEmpty();
    assertThat(targets("bi_engine")).containsExactly("finance");
  }

  /** The actor is written by the token side; here it is stored as the audit writer stores it. */
  @Test
  void theEventsApiShowsAndFiltersTheActor() throws Exception {
    AuditEvent direct =
        new AuditEvent(
            0,
            System.currentTimeMillis(),
            "jane",
            List.of("analysts"),
            "loadTable",
            "lake",
            "table sales.orders",
            true,
            "actor-test-1");
    server
        .server()
        .store()
        .access()
        .appendEvents(List.of(direct, direct.withActor("trino_engine"), direct.withActor("spark")));

    List<Event> byTrino = admin.events("actor=trino_engine").events();
    assertThat(byTrino)
        .singleElement()
        .satisfies(
            e -> {
              assertThat(e.principal()).isEqualTo("jane");
              assertThat(e.actor()).isEqualTo("trino_engine");
            });
    assertThat(admin.events("principal=jane&actor=spark").events())
        .extracting(Event::actor)
        .containsExactly("spark");
    assertThat(admin.events("actor=nobody").events()).isEmpty();

    assertThat(admin.events("principal=jane").events())
        .extracting(Event::actor)
        .containsExactly("spark", "trino_engine", null);
    // On the wire: a string where someone acted, absent (not null) where nobody did.
    JsonNode raw =
        TestServer.json(server.send("GET", M + "/events?principal=jane", null).body())
            .get("events");
    assertThat(raw.get(1).get("actor").asText()).isEqualTo("trino_engine");
    assertThat(raw.get(2).has("actor")).isFalse();
  }
}
