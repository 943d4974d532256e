package dev.sluice;

import static org.assertj.core.api.Assertions.assertThat;

import dev.sluice.testing.ErrorShape;
import dev.sluice.testing.RawHttp;
import dev.sluice.testing.TestServer;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The bad inputs the fuzzer found (and their neighbours), each pinned: a 4xx Iceberg ErrorResponse
 * whose code is the status, never a 500 or Jetty's HTML page. Sent over a raw socket, since an HTTP
 * client would refuse to send most of them.
 */
class MalformedHttpTest {
  private static final String SCHEMA =
      "{\"type\":\"struct\",\"schema-id\":0,\"fields\":[{\"id\":1,\"name\":\"id\",\"required\":true,\"type\":\"long\"}]}";
  private static final String M = "/api/management/v1";
  private static TestServer server;
  private static RawHttp http;
  private static String base;
  private static String catalog;

  /** {@code {c}} in a path or body is the test catalog. */
  record Case(String name, String method, String target, String body, int status, String header) {
    @Override
    public String toString() {
      return name;
    }
  }

  @BeforeAll
  static void start() throws Exception {
    server = TestServer.startH2();
    http = new RawHttp("127.0.0.1", server.server().port());
    catalog = server.createCatalog("mal");
    base = "/api/catalog/v1/" + catalog;
    assertThat(server.send("POST", base + "/namespaces", "{\"namespace\":[\"ns\"]}").statusCode())
        .isEqualTo(200);
    assertThat(
            server
                .send(
                    "POST",
                    base + "/namespaces/ns/tables",
                    "{\"name\":\"t\",\"schema\":" + SCHEMA + "}")
                .statusCode())
        .isEqualTo(200);
  }

  @AfterAll
  static void stop() throws Exception {
    server.close();
  }

  static Stream<Case> cases() {
    String ns = "/api/catalog/v1/{c}/namespaces";
    String view =
        "{\"name\":\"v\",\"schema\":"
            + SCHEMA
            + ",\"view-version\":{\"version-id\":1,\"timestamp-ms\":1,"
            + "\"schema-id\":0,\"summary\":{},\"representations\":[{\"type\":\"sql\",\"sql\":\"select 1\",\"dialect\":\"x\"}],"
            + "\"default-namespace\":[\"ns\"]},\"properties\":{\"a\":null}}";
    return Stream.of(
        // null where a string belongs, on every route that takes a string map or list
        new Case(
            "create-namespace property null",
            "POST",
            ns,
            "{\"namespace\":[\"n1\"],\"properties\":{\"a\":null}}",
            400,
            null),
        new Case(
            "namespace-properties update null",
            "POST",
            ns + "/ns/properties",
            "{\"updates\":{\"a\":null}}",
            400,
            null),
        new Case(
            "namespace-properties removal null",
            "POST",
            ns + "/ns/properties",
            "{\"removals\":[null]}",
            400,
            null),
        new Case(
            "create-table property null",
            "POST",
            ns + "/ns/tables",
            "{\"name\":\"t1\",\"schema\":" + SCHEMA + ",\"properties\":{\"a\":null}}",
            400,
            null),
        new Case(
            "stage-create property null",
            "POST",
            ns + "/ns/tables",
            "{\"name\":\"t2\",\"stage-create\":true,\"schema\":"
                + SCHEMA
                + ",\"properties\":{\"a\":null}}",
            400,
            null),
        new Case(
            "set-properties null",
            "POST",
            ns + "/ns/tables/t",
            "{\"requirements\":[],\"updates\":[{\"action\":\"set-properties\",\"updates\":{\"a\":null}}]}",
            400,
            null),
        new Case(
            "remove-properties null",
            "POST",
            ns + "/ns/tables/t",
            "{\"requirements\":[],\"updates\":[{\"action\":\"remove-properties\",\"removals\":[null]}]}",
            400,
            null),
        new Case("create-view property null", "POST", ns + "/ns/views", view, 400, null),
        new Case(
            "catalog property null",
            "POST",
            M + "/catalogs",
            "{\"catalog\":{\"name\":\"x\",\"type\":\"INTERNAL\","
                + "\"properties\":{\"default-base-location\":null},\"storageConfigInfo\":{\"storageType\":\"FILE\"}}}",
            400,
            null),
        new Case(
            "update-catalog property null",
            "PUT",
            M + "/catalogs/{c}",
            "{\"properties\":{\"a\":null}}",
            400,
            null),
        new Case(
            "principal property null",
            "POST",
            M + "/principals",
            "{\"principal\":{\"name\":\"p\",\"properties\":{\"a\":null}}}",
            400,
            null),
        new Case(
            "principal-role property null",
            "POST",
            M + "/principal-roles",
            "{\"principalRole\":{\"name\":\"r\",\"properties\":{\"a\":null}}}",
            400,
            null),
        new Case(
            "catalog-role property null",
            "POST",
            M + "/catalogs/{c}/catalog-roles",
            "{\"catalogRole\":{\"name\":\"r\",\"properties\":{\"a\":null}}}",
            400,
            null),
        // malformed percent-escapes, in the path and in the query
        new Case("lone % in the prefix", "GET", "/api/catalog/v1/%/namespaces", null, 400, null),
        new Case("%zz in a namespace", "GET", ns + "/%zz", null, 400, null),
        new Case("%00 in a table", "GET", ns + "/ns/tables/%00", null, 400, null),
        new Case("%2 at the end", "GET", ns + "/ns/tables/t%2", null, 400, null),
        new Case("%zz in the management API", "GET", M + "/principals/%zz", null, 400, null),
        new Case("invalid UTF-8 escape in a name", "GET", ns + "/%C3%28", null, 404, null),
        new Case(
            "% in the warehouse query",
            "GET", "/api/catalog/v1/config?warehouse=%", null, 400, null),
        new Case("%zz in a page token", "GET", ns + "?pageToken=%zz", null, 400, null),
        // bodies: invalid UTF-8, deep nesting, huge numbers, wrong types
        new Case(
            "invalid UTF-8 in a body", "POST", ns, "{\"namespace\":[\"\u00c3(\"]}", 400, "latin1"),
        new Case(
            "deeply nested body", "POST", ns, "[".repeat(100_000) + "]".repeat(100_000), 400, null),
        new Case(
            "huge number",
            "PUT",
            M + "/catalogs/{c}",
            "{\"currentEntityVersion\":1e400}",
            400,
            null),
        new Case(
            "number where a name belongs",
            "POST",
            ns + "/ns/tables",
            "{\"name\":1e400,\"schema\":" + SCHEMA + "}",
            400,
            null),
        // methods, headers
        new Case("unknown method", "FOO", ns, null, 405, null),
        new Case("WebDAV method", "PROPFIND", "/healthz", null, 405, null),
        new Case("oversize header", "GET", ns, null, 431, "huge"),
        new Case(
            "odd content type",
            "POST",
            ns,
            "{\"namespace\":[\"n2\"]",
            400,
            "text/plain; charset=nonsense"));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("cases")
  void badInputIsA4xxErrorResponse(Case c) throws Exception {
    List<String[]> headers = new ArrayList<>();
    headers.add(new String[] {"Authorization", "Bearer " + server.rootToken()});
    byte[] body =
        c.body() == null ? null : c.body().replace("{c}", catalog).getBytes(StandardCharsets.UTF_8);
    if ("latin1".equals(c.header())) {
      body = c.body().getBytes(StandardCharsets.ISO_8859_1); // 0xC3 0x28: not UTF-8
    } else if ("huge".equals(c.header())) {
      headers.add(new String[] {"X-Huge", "h".repeat(40_000)});
    } else if (c.header() != null) {
      headers.add(new String[] {"Content-Type", c.header()});
    }
    if (body != null && c.header() == null) {
      headers.add(new String[] {"Content-Type", "application/json"});
    }
    RawHttp.Response response =
        http.send(
            c.method(),
            c.target().replace("{c}", catalog).getBytes(StandardCharsets.UTF_8),
            headers,
            body);
    String text = response.bodyText();
    assertThat(response.status()).as(text).isEqualTo(c.status());
    assertThat(
            ErrorShape.icebergProblem(
                response.status(), response.headers().get("content-type"), text))
        .as(text)
        .isNull();
    assertThat(ErrorShape.hasStackTrace(text)).as(text).isFalse();
  }
}
