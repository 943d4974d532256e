package dev.sluice;

import static dev.sluice.AuthorizationMatrixTest.SCHEMA;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.sluice.testing.Admin;
import dev.sluice.testing.ErrorShape;
import dev.sluice.testing.TestServer;
import java.net.URLEncoder;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Page tokens are sealed and bound (issue 32, finding 5): with {@code pageSize=1} a token used to
 * be the last key the unfiltered page read, so decoding it named catalogs, namespaces and tables
 * the caller may not see, and filtered pages came back empty, counting what was hidden.
 */
class PageTokenTest {
  private static final String M = "/api/management/v1";
  private static TestServer server;
  private static String lister;
  private static String otherLister;
  private static List<String> catalogs = new ArrayList<>();
  private static String lake;
  private static String base;

  @BeforeAll
  static void start() throws Exception {
    server = TestServer.startH2();
    Admin admin = new Admin(server);
    for (String prefix : List.of("pt_open", "pt_hidden", "pt_mine", "pt_secret")) {
      catalogs.add(server.createCatalog(prefix));
    }
    lake = catalogs.get(0);
    base = "/api/catalog/v1/" + lake;
    String[] credentials = admin.principal("pt_lister", "pt_lister_role");
    String[] other = admin.principal("pt_other", "pt_lister_role");
    admin.catalogRole(lake, "readers", "pt_lister_role");
    admin.catalogRole(catalogs.get(2), "readers", "pt_lister_role");
    for (String ns : List.of("ns_a", "ns_hidden1", "ns_b", "ns_hidden2")) {
      ok(server.send("POST", base + "/namespaces", "{\"namespace\": [\"" + ns + "\"]}"));
    }
    for (String t : List.of("t1_hidden", "t2_mine", "t3_hidden", "t4_hidden", "t5_mine")) {
      ok(
          server.send(
              "POST",
              base + "/namespaces/ns_a/tables",
              "{\"name\": \"" + t + "\", \"schema\": " + SCHEMA + "}"));
      if (t.endsWith("_mine")) {
        admin.grant(
            lake, "readers", Admin.grantJson("table", List.of("ns_a"), t, "TABLE_READ_PROPERTIES"));
      }
    }
    admin.grant(
        lake, "readers", Admin.grantJson("namespace", List.of("ns_b"), null, "NAMESPACE_LIST"));
    lister = server.token(credentials[0], credentials[1]);
    otherLister = server.token(other[0], other[1]);
  }

  @AfterAll
  static void stop() throws Exception {
    server.close();
  }

  private static HttpResponse<String> ok(HttpResponse<String> response) {
    assertThat(response.statusCode()).as(response.body()).isBetween(200, 204);
    return response;
  }

  /**
   * Every page of {@code path} for {@code token}, one item per page; the tokens into {@code seen}.
   */
  private static List<JsonNode> walk(
      String token, String path, String tokenField, List<String> tokens) throws Exception {
    List<JsonNode> pages = new ArrayList<>();
    String next = null;
    do {
      String url =
          path
              + (path.contains("?") ? "&" : "?")
              + "pageSize=1"
              + (next == null
                  ? ""
                  : "&pageToken=" + URLEncoder.encode(next, StandardCharsets.UTF_8));
      JsonNode page = TestServer.json(ok(server.sendAs(token, "GET", url, null)).body());
      pages.add(page);
      next = page.hasNonNull(tokenField) ? page.get(tokenField).asText() : null;
      if (next != null) {
        tokens.add(next);
      }
      assertThat(pages).as("pages of " + path).hasSizeLessThan(50);
    } while (next != null);
    return pages;
  }

  /** What a token says to anyone who decodes it (base64url, as the old tokens were). */
  private static String decoded(String token) {
    try {
      return new String(Base64.getUrlDecoder().decode(token), StandardCharsets.ISO_8859_1);
    } catch (IllegalArgumentException e) {
      return token;
    }
  }

  private static void assertNamesNothing(List<String> tokens, List<String> names) {
    assertThat(tokens).isNotEmpty();
    for (String token : tokens) {
      for (String name : names) {
        assertThat(decoded(token)).as("token %s", token).doesNotContain(name);
        assertThat(token).doesNotContain(name);
      }
    }
  }

  @Test
  void catalogPagesAreFullAndTheirTokensNameNoCatalog() throws Exception {
    List<String> tokens = new ArrayList<>();
    List<JsonNode> pages = walk(lister, M + "/catalogs", "nextPageToken", tokens);
    List<String> seen = new ArrayList<>();
    pages.forEach(p -> p.get("catalogs").forEach(c -> seen.add(c.get("name").asText())));
    assertThat(seen)
        .containsExactlyElementsOf(new java.util.TreeSet<>(List.of(lake, catalogs.get(2))));
    assertThat(pages).as("one full page per catalog the lister is in, no empty page").hasSize(2);
    assertNamesNothing(tokens, catalogs);
  }

  @Test
  void namespaceAndTablePagesAreFullAndTheirTokensNameNothing() throws Exception {
    List<String> tokens = new ArrayList<>();
    List<JsonNode> namespaces = walk(lister, base + "/namespaces", "next-page-token", tokens);
    List<String> seen = new ArrayList<>();
    namespaces.forEach(p -> p.get("namespaces").forEach(n -> seen.add(n.get(0).asText())));
    assertThat(seen).containsExactly("ns_a", "ns_b");
    assertThat(namespaces).hasSize(2);

    List<JsonNode> tables =
        walk(lister, base + "/namespaces/ns_a/tables", "next-page-token", tokens);
    List<String> names = new ArrayList<>();
    tables.forEach(p -> p.get("identifiers").forEach(t -> names.add(t.get("name").asText())));
    assertThat(names).containsExactly("t2_mine", "t5_mine");
    assertThat(tables).hasSize(2);
    // Whole names: a two-letter string turns up in random bytes by chance.
    assertNamesNothing(
        tokens,
        List.of(
            "ns_a",
            "ns_b",
            "ns_hidden1",
            "ns_hidden2",
            "t1_hidden",
            "t2_mine",
            "t3_hidden",
            "t4_hidden",
            "t5_mine"));
  }

  private static String firstToken(String token, String path, String field) throws Exception {
    JsonNode page =
        TestServer.json(
            ok(server.sendAs(
                    token, "GET", path + (path.contains("?") ? "&" : "?") + "pageSize=1", null))
                .body());
    assertThat(page.hasNonNull(field)).as(page.toString()).isTrue();
    return page.get(field).asText();
  }

  private static void assertRefused(String token, String path, String pageToken) throws Exception {
    HttpResponse<String> response =
        server.sendAs(
            token,
            "GET",
            path
                + (path.contains("?") ? "&" : "?")
                + "pageSize=1&pageToken="
                + URLEncoder.encode(pageToken, StandardCharsets.UTF_8),
            null);
    assertThat(response.statusCode()).as(path + " with " + pageToken).isEqualTo(400);
    assertThat(
            ErrorShape.icebergProblem(
                400, response.headers().firstValue("Content-Type").orElse(null), response.body()))
        .isNull();
    assertThat(TestServer.json(response.body()).get("error").get("type").asText())
        .isEqualTo("BadRequestException");
    assertThat(response.body()).contains("Invalid pageToken");
  }

  @Test
  void forgedAlteredAndForeignTokensAre400() throws Exception {
    String tables = base + "/namespaces/ns_a/tables";
    String root = server.rootToken();
    String real = firstToken(root, tables, "next-page-token");
    // What the old tokens were: the key, base64url-encoded. Forged to skip ahead.
    assertRefused(
        root,
        tables,
        Base64.getUrlEncoder()
            .withoutPadding()
            .encodeToString("t3".getBytes(StandardCharsets.UTF_8)));
    assertRefused(root, tables, "not-a-token");
    char flipped = real.charAt(real.length() / 2) == 'A' ? 'B' : 'A';
    assertRefused(
        root,
        tables,
        real.substring(0, real.length() / 2) + flipped + real.substring(real.length() / 2 + 1));
    // Another listing: another namespace, another route, a filter changed.
    assertRefused(root, base + "/namespaces/ns_b/tables", real);
    assertRefused(root, base + "/namespaces/ns_a/views", real);
    assertRefused(root, M + "/principals", firstToken(root, M + "/catalogs", "nextPageToken"));
    String namespaces = firstToken(root, base + "/namespaces", "next-page-token");
    assertRefused(root, base + "/namespaces?parent=ns_a", namespaces);
    // Another caller, even one holding the same roles.
    String mine = firstToken(lister, tables, "next-page-token");
    assertRefused(otherLister, tables, mine);
    assertRefused(root, tables, mine);
    // And the real one still works for its own caller and listing.
    ok(
        server.sendAs(
            lister,
            "GET",
            tables + "?pageSize=1&pageToken=" + URLEncoder.encode(mine, StandardCharsets.UTF_8),
            null));
  }

  @Test
  void aTokenOutlivesARotationAndDiesWithItsKey() throws Exception {
    try (TestServer own = TestServer.startH2()) {
      String catalog = own.createCatalog("pt_keys");
      String path = "/api/catalog/v1/" + catalog + "/namespaces";
      for (String ns : List.of("n1", "n2", "n3")) {
        ok(own.send("POST", path, "{\"namespace\": [\"" + ns + "\"]}"));
      }
      JsonNode first = TestServer.json(ok(own.send("GET", path + "?pageSize=1", null)).body());
      String token = first.get("next-page-token").asText();
      String oldKid =
          TestServer.json(ok(own.send("GET", M + "/signing-keys", null)).body())
              .get("keys")
              .get(0)
              .get("kid")
              .asText();
      ok(own.send("POST", M + "/signing-keys/rotate", null));
      String next =
          path + "?pageSize=1&pageToken=" + URLEncoder.encode(token, StandardCharsets.UTF_8);
      JsonNode second = TestServer.json(ok(own.send("GET", next, null)).body());
      assertThat(second.get("namespaces").get(0).get(0).asText()).isEqualTo("n2");

      String fresh = own.token(TestServer.CLIENT_ID, TestServer.SECRET);
      ok(own.sendAs(fresh, "DELETE", M + "/signing-keys/" + oldKid, null));
      HttpResponse<String> refused = own.sendAs(fresh, "GET", next, null);
      assertThat(refused.statusCode()).as(refused.body()).isEqualTo(400);
    }
  }
}
