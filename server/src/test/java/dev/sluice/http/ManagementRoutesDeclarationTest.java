package dev.sluice.http;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.sluice.testing.Admin;
import dev.sluice.testing.TestServer;
import java.net.URLEncoder;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The management routes are declared once ({@link ManagementRoutes#DECLARED}), each with the action
 * its audit events name and the check that guards it. Checked against the route table the running
 * server dispatches on: every management route is declared; a declared check runs before the
 * handler reads anything (a caller without standing gets 403 for a body that is not even JSON, not
 * 400), and the audit trail names the declared action.
 */
class ManagementRoutesDeclarationTest {
  private static TestServer server;
  private static String nobodyToken;
  private static String lake;

  @BeforeAll
  static void start() throws Exception {
    server = TestServer.startH2();
    lake = server.createCatalog("lake");
    String[] nobody = new Admin(server).principal("nobody", null);
    nobodyToken = server.token(nobody[0], nobody[1]);
  }

  @AfterAll
  static void stop() throws Exception {
    server.close();
  }

  @Test
  void everyManagementRouteIsDeclaredOnceWithAnActionOfItsOwn() {
    Set<String> served =
        server.server().routes().stream()
            .filter(r -> r.template().startsWith(ManagementRoutes.BASE))
            // The API's own document is public and static, not a management call.
            .filter(
                r ->
                    !r.template().equals(ApiDocument.YAML_PATH)
                        && !r.template().equals(ApiDocument.JSON_PATH))
            .map(r -> r.method() + " " + r.template())
            .collect(Collectors.toSet());
    List<String> declared =
        ManagementRoutes.DECLARED.stream().map(d -> d.method() + " " + d.path()).toList();
    assertThat(declared).doesNotHaveDuplicates();
    assertThat(Set.copyOf(declared)).isEqualTo(served);
    assertThat(ManagementRoutes.DECLARED.stream().map(ManagementRoutes.Declared::action))
        .doesNotHaveDuplicates();
    assertThat(served).hasSizeGreaterThan(30);
  }

  static Stream<ManagementRoutes.Declared> guarded() {
    return ManagementRoutes.DECLARED.stream()
        .filter(d -> !d.guard().inHandler() && !d.guard().description().startsWith("any "));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("guarded")
  void aCallerWithoutStandingIsRefusedBeforeTheBodyIsReadUnderTheDeclaredAction(
      ManagementRoutes.Declared route) throws Exception {
    String body = route.method().equals("GET") || route.method().equals("DELETE") ? null : "{not";
    HttpResponse<String> answer =
        server.sendAs(nobodyToken, route.method(), concrete(route.path()), body);

    assertThat(answer.statusCode()).as(answer.body()).isEqualTo(403);
    assertThat(auditedActions("DENY")).contains(route.action());
  }

  @Test
  void routesOpenToAnyoneAreAuditedUnderTheirDeclaredAction() throws Exception {
    List<ManagementRoutes.Declared> open =
        ManagementRoutes.DECLARED.stream()
            .filter(d -> d.guard().description().startsWith("any "))
            .toList();
    assertThat(open).isNotEmpty();
    for (ManagementRoutes.Declared route : open) {
      HttpResponse<String> answer =
          server.sendAs(nobodyToken, route.method(), concrete(route.path()), null);
      assertThat(answer.statusCode()).as(route.action()).isEqualTo(200);
    }
    assertThat(auditedActions("ALLOW"))
        .containsAll(open.stream().map(ManagementRoutes.Declared::action).toList());
  }

  @Test
  void routesThatAuthorizeInTheirHandlerSayWhy() {
    List<ManagementRoutes.Declared> inHandler =
        ManagementRoutes.DECLARED.stream().filter(d -> d.guard().inHandler()).toList();
    assertThat(inHandler)
        .extracting(ManagementRoutes.Declared::action)
        .containsExactlyInAnyOrder("explainPrivileges", "listEvents");
    assertThat(inHandler)
        .allSatisfy(d -> assertThat(d.guard().description()).hasSizeGreaterThan(30));
  }

  /** The path with its placeholders filled: an existing catalog, the principal root. */
  private static String concrete(String template) {
    return template
        .replace("{name}", lake)
        .replace("{catalog}", lake)
        .replace("{principal}", "root")
        .replace("{role}", "service_admin")
        .replace("{catalogRole}", "catalog_admin")
        .replace("{targetRole}", "service_admin")
        .replace("{namespace}", "sales")
        .replace("{table}", "orders")
        .replace("{principalRole}", "service_admin")
        .replace("{kid}", "k1");
  }

  /** The actions audited for {@code nobody} with {@code decision}, read as the service admin. */
  private static Set<String> auditedActions(String decision) throws Exception {
    Set<String> actions = new HashSet<>();
    String token = null;
    List<String> pages = new ArrayList<>();
    do {
      String path =
          ManagementRoutes.BASE
              + "/events?principal=nobody&decision="
              + decision
              + "&pageSize=100"
              + (token == null
                  ? ""
                  : "&pageToken=" + URLEncoder.encode(token, StandardCharsets.UTF_8));
      HttpResponse<String> page = server.send("GET", path, null);
      assertThat(page.statusCode()).as(page.body()).isEqualTo(200);
      pages.add(page.body());
      JsonNode json = TestServer.json(page.body());
      json.get("events").forEach(e -> actions.add(e.get("action").asText()));
      JsonNode next = json.get("nextPageToken");
      token = next == null || next.isNull() ? null : next.asText();
    } while (token != null && pages.size() < 50);
    return actions;
  }
}
