package dev.sluice;

import static org.assertj.core.api.Assertions.assertThat;

import dev.sluice.api.EffectivePrivileges;
import dev.sluice.api.EffectivePrivileges.HeldPrivilege;
import dev.sluice.api.EffectivePrivileges.PrivilegePath;
import dev.sluice.api.Event;
import dev.sluice.api.Grant;
import dev.sluice.audit.AuditLog;
import dev.sluice.authz.Authorizer;
import dev.sluice.authz.Caller;
import dev.sluice.authz.Privilege;
import dev.sluice.store.AccessStore;
import dev.sluice.store.NamespacePath;
import dev.sluice.store.SecurableRef;
import dev.sluice.testing.Admin;
import dev.sluice.testing.TestServer;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.net.URLEncoder;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.TreeSet;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * GET …/catalogs/{c}/principals/{p}/effective-privileges: each privilege with the principal role →
 * catalog role → grant that gives it; the union is what the authorizer decides with; who may ask.
 */
class EffectivePrivilegesTest {
  private static final String M = "/api/management/v1";
  private static final String SEP = "\u001f";
  private static TestServer server;
  private static Admin admin;
  private static String catalog;
  private static String[] alice;
  private static String aliceToken;
  private static String malloryToken;

  @BeforeAll
  static void start() throws Exception {
    server = TestServer.startH2();
    admin = new Admin(server);
    catalog = server.createCatalog("ep");
    // alice holds r1 and r2; r1 → cr1 (catalog TABLE_LIST, namespace a.b TABLE_WRITE_DATA,
    // table a.b.other TABLE_DROP, namespace x TABLE_READ_DATA); r2 → cr2 (table a.b.t
    // TABLE_READ_DATA).
    alice = admin.principal("alice", "r1");
    ok("POST", M + "/principal-roles", Admin.principalRoleJson("r2"));
    ok("PUT", M + "/principals/alice/principal-roles", Admin.grantPrincipalRoleJson("r2"));
    admin.catalogRole(catalog, "cr1", "r1");
    admin.catalogRole(catalog, "cr2", "r2");
    admin.grant(catalog, "cr1", Grant.onCatalog("TABLE_LIST"));
    admin.grant(catalog, "cr1", Grant.onNamespace(List.of("a", "b"), "TABLE_WRITE_DATA"));
    admin.grant(catalog, "cr1", Grant.onTable(List.of("a", "b"), "other", "TABLE_DROP"));
    admin.grant(catalog, "cr1", Grant.onNamespace(List.of("x"), "TABLE_READ_DATA"));
    admin.grant(catalog, "cr2", Grant.onTable(List.of("a", "b"), "t", "TABLE_READ_DATA"));
    aliceToken = server.token(alice[0], alice[1]);
    String[] mallory = admin.principal("mallory", "mallory_role");
    malloryToken = server.token(mallory[0], mallory[1]);
  }

  @AfterAll
  static void stop() throws Exception {
    server.close();
  }

  private static void ok(String method, String path, String body) throws Exception {
    HttpResponse<String> r = server.send(method, path, body);
    assertThat(r.statusCode()).as(r.body()).isBetween(200, 299);
  }

  private static String url(String catalog, String principal, String query) {
    return M
        + "/catalogs/"
        + catalog
        + "/principals/"
        + principal
        + "/effective-privileges?"
        + query;
  }

  private static String q(String type, String namespace, String name) {
    StringBuilder sb = new StringBuilder("type=" + type);
    if (namespace != null) {
      sb.append("&namespace=").append(URLEncoder.encode(namespace, StandardCharsets.UTF_8));
    }
    if (name != null) {
      sb.append("&name=").append(URLEncoder.encode(name, StandardCharsets.UTF_8));
    }
    return sb.toString();
  }

  private static EffectivePrivileges explain(String token, String principal, String query)
      throws Exception {
    HttpResponse<String> r = server.sendAs(token, "GET", url(catalog, principal, query), null);
    assertThat(r.statusCode()).as(r.body()).isEqualTo(200);
    return Admin.read(r, EffectivePrivileges.class);
  }

  /** privilege → its paths as "principalRole>catalogRole>type:ns:name:PRIVILEGE". */
  private static Map<String, List<String>> paths(EffectivePrivileges answer) {
    Map<String, List<String>> out = new LinkedHashMap<>();
    for (HeldPrivilege p : answer.privileges()) {
      List<String> via = new ArrayList<>();
      for (PrivilegePath v : p.via()) {
        Grant g = v.grant();
        String ns = g.namespace() != null ? String.join(".", g.namespace()) : "";
        String name =
            g.tableName() != null ? g.tableName() : g.viewName() != null ? g.viewName() : "";
        via.add(
            v.principalRole()
                + ">"
                + v.catalogRole()
                + ">"
                + g.type()
                + ":"
                + ns
                + ":"
                + name
                + ":"
                + g.privilege());
      }
      out.put(p.privilege(), via);
    }
    return out;
  }

  @Test
  void eachPrivilegeNamesThePrincipalRoleCatalogRoleAndGrantThatGiveIt() throws Exception {
    EffectivePrivileges table =
        explain(server.rootToken(), "alice", q("table", "a" + SEP + "b", "t"));
    assertThat(table.principal()).isEqualTo("alice");
    assertThat(table.catalog()).isEqualTo(catalog);
    assertThat(table.securable().type()).isEqualTo("table");
    assertThat(table.securable().namespace()).containsExactly("a", "b");
    assertThat(table.securable().name()).isEqualTo("t");
    String write = "r1>cr1>namespace:a.b::TABLE_WRITE_DATA";
    Map<String, List<String>> expected = new LinkedHashMap<>();
    expected.put("TABLE_LIST", List.of("r1>cr1>catalog:::TABLE_LIST"));
    expected.put("TABLE_READ_PROPERTIES", List.of(write, "r2>cr2>table:a.b:t:TABLE_READ_DATA"));
    expected.put("TABLE_WRITE_PROPERTIES", List.of(write));
    expected.put("TABLE_READ_DATA", List.of(write, "r2>cr2>table:a.b:t:TABLE_READ_DATA"));
    expected.put("TABLE_WRITE_DATA", List.of(write));
    assertThat(paths(table)).containsExactlyEntriesOf(expected);

    // Above the table only the catalog grant reaches; a sibling namespace gets its own grant.
    assertThat(paths(explain(server.rootToken(), "alice", q("namespace", "a", null))))
        .containsExactlyEntriesOf(Map.of("TABLE_LIST", List.of("r1>cr1>catalog:::TABLE_LIST")));
    assertThat(paths(explain(server.rootToken(), "alice", q("catalog", null, null))))
        .containsExactlyEntriesOf(Map.of("TABLE_LIST", List.of("r1>cr1>catalog:::TABLE_LIST")));
    assertThat(paths(explain(server.rootToken(), "alice", q("view", "x", "v"))).keySet())
        .containsExactly("TABLE_LIST", "TABLE_READ_PROPERTIES", "TABLE_READ_DATA");
  }

  @Test
  void theUnionIsWhatTheAuthorizerDecidesWithForRandomGrants() throws Exception {
    String c = server.createCatalog("rnd");
    admin.principal("randy", "q1");
    ok("POST", M + "/principal-roles", Admin.principalRoleJson("q2"));
    ok("PUT", M + "/principals/randy/principal-roles", Admin.grantPrincipalRoleJson("q2"));
    admin.catalogRole(c, "k1", "q1");
    admin.catalogRole(c, "k2", "q2");
    List<SecurableRef> universe =
        List.of(
            SecurableRef.CATALOG,
            SecurableRef.namespace(NamespacePath.of("a")),
            SecurableRef.namespace(NamespacePath.of("a", "b")),
            SecurableRef.namespace(NamespacePath.of("z")),
            SecurableRef.table(NamespacePath.of("a"), "t"),
            SecurableRef.table(NamespacePath.of("a", "b"), "t"),
            SecurableRef.view(NamespacePath.of("a", "b"), "v"),
            SecurableRef.view(NamespacePath.of("z"), "v"));
    Random random = new Random(19);
    Privilege[] all = Privilege.values();
    for (int i = 0; i < 14; i++) {
      SecurableRef s = universe.get(random.nextInt(universe.size()));
      Privilege p = all[random.nextInt(all.length)];
      String type = s.type().name().toLowerCase();
      List<String> ns = s.namespace().isRoot() ? null : s.namespace().levels();
      HttpResponse<String> r =
          server.send(
              "PUT",
              M + "/catalogs/" + c + "/catalog-roles/" + (i % 2 == 0 ? "k1" : "k2") + "/grants",
              Admin.grantJson(type, ns, s.name().isEmpty() ? null : s.name(), p.name()));
      assertThat(r.statusCode()).as(r.body()).isEqualTo(201);
    }
    AccessStore access = server.server().store().access();
    Caller randy = new Caller("randy", access.principalRolesOf("randy"), "test");
    int nonEmpty = 0;
    try (AuditLog audit = new AuditLog(access, new SimpleMeterRegistry())) {
      Authorizer authz = new Authorizer(access, audit);
      for (SecurableRef s : universe) {
        String query =
            q(
                s.type().name().toLowerCase(),
                s.namespace().isRoot() ? null : s.namespace().key(),
                s.name().isEmpty() ? null : s.name());
        HttpResponse<String> r = server.send("GET", url(c, "randy", query), null);
        assertThat(r.statusCode()).as(r.body()).isEqualTo(200);
        Set<Privilege> union = EnumSet.noneOf(Privilege.class);
        for (HeldPrivilege p : Admin.read(r, EffectivePrivileges.class).privileges()) {
          union.add(Privilege.valueOf(p.privilege()));
          assertThat(p.via()).as("%s on %s has a path", p, s).isNotEmpty();
        }
        assertThat(union).as(s.toString()).isEqualTo(authz.effective(randy, c, s));
        nonEmpty += union.isEmpty() ? 0 : 1;
      }
    }
    assertThat(nonEmpty).as("the random grants reach something").isGreaterThan(2);
  }

  @Test
  void anOutsiderGetsOneRefusalWhetherTheCatalogOrPrincipalExistsOrNot() throws Exception {
    String existing = refusal(malloryToken, catalog, "alice");
    assertThat(refusal(malloryToken, catalog, "nobody")).isEqualTo(existing);
    assertThat(refusal(malloryToken, "nosuchcatalog", "alice").replace("nosuchcatalog", catalog))
        .isEqualTo(existing);
    assertThat(existing).doesNotContain("TABLE_");

    // With standing in the catalog but not CATALOG_MANAGE_ACCESS: 403 alike for both principals.
    String c = server.createCatalog("std");
    admin.catalogRole(c, "mc", "mallory_role");
    admin.grant(c, "mc", Grant.onCatalog("TABLE_LIST"));
    assertThat(refusal(malloryToken, c, "nobody")).isEqualTo(refusal(malloryToken, c, "alice"));

    assertThat(admin.events("principal=mallory&decision=DENY").events())
        .extracting(Event::action)
        .contains("explainPrivileges");
  }

  private static String refusal(String token, String catalog, String principal) throws Exception {
    HttpResponse<String> r =
        server.sendAs(token, "GET", url(catalog, principal, q("catalog", null, null)), null);
    assertThat(r.statusCode()).as(r.body()).isEqualTo(403);
    return r.body();
  }

  @Test
  void aPrincipalMayAskAboutItselfOnlyAndTheServiceAdminLearnsWhatIsMissing() throws Exception {
    String query = q("table", "a" + SEP + "b", "t");
    assertThat(paths(explain(aliceToken, "alice", query)))
        .isEqualTo(paths(explain(server.rootToken(), "alice", query)));
    refusal(aliceToken, catalog, "mallory");

    assertThat(server.send("GET", url(catalog, "nobody", query), null).statusCode()).isEqualTo(404);
    assertThat(server.send("GET", url("nosuchcatalog", "alice", query), null).statusCode())
        .isEqualTo(404);
  }

  @Test
  void anAccessManagerAsksAboutAnyoneAndAMissingPrincipalHoldsNothing() throws Exception {
    String c = server.createCatalog("mgr");
    String[] manny = admin.principal("manny", "manny_role");
    admin.catalogRole(c, "mgr", "manny_role");
    admin.grant(c, "mgr", Grant.onCatalog("CATALOG_MANAGE_ACCESS"));
    admin.catalogRole(c, "reader", "r1");
    admin.grant(c, "reader", Grant.onCatalog("TABLE_READ_DATA"));
    String token = server.token(manny[0], manny[1]);
    HttpResponse<String> r =
        server.sendAs(token, "GET", url(c, "alice", q("catalog", null, null)), null);
    assertThat(r.statusCode()).as(r.body()).isEqualTo(200);
    assertThat(paths(Admin.read(r, EffectivePrivileges.class)).get("TABLE_READ_DATA"))
        .containsExactly("r1>reader>catalog:::TABLE_READ_DATA");
    r = server.sendAs(token, "GET", url(c, "nobody", q("catalog", null, null)), null);
    assertThat(r.statusCode()).as(r.body()).isEqualTo(200);
    assertThat(Admin.read(r, EffectivePrivileges.class).privileges()).isEmpty();
  }

  @Test
  void badQueriesAre400sNamingTheParameter() throws Exception {
    String deep = String.join(SEP, java.util.Collections.nCopies(17, "n"));
    Map<String, String> cases = new LinkedHashMap<>();
    cases.put("", "type");
    cases.put("type=bogus", "type");
    cases.put(q("catalog", "a", null), "namespace");
    cases.put(q("catalog", null, "t"), "name");
    cases.put(q("namespace", null, null), "namespace");
    cases.put(q("namespace", "a", "t"), "name");
    cases.put(q("table", "a", null), "name");
    cases.put(q("table", null, "t"), "namespace");
    cases.put(q("view", "a" + SEP, "v"), "namespace level");
    cases.put(q("table", deep, "t"), "namespace");
    cases.put(q("table", "a", "t\u0001"), "name");
    Set<String> seen = new TreeSet<>();
    for (Map.Entry<String, String> c : cases.entrySet()) {
      HttpResponse<String> r = server.send("GET", url(catalog, "alice", c.getKey()), null);
      assertThat(r.statusCode()).as("%s: %s", c.getKey(), r.body()).isEqualTo(400);
      String message = TestServer.json(r.body()).get("error").get("message").asText();
      assertThat(message).as(c.getKey()).contains(c.getValue());
      seen.add(message);
    }
    assertThat(seen).as("distinct messages").hasSizeGreaterThan(6);
  }
}
