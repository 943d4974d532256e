package dev.sluice.http;

import static org.assertj.core.api.Assertions.assertThat;

import dev.sluice.testing.TestServer;
import java.net.http.HttpResponse;
import java.util.Map;
import java.util.regex.Pattern;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The console's assets as the server sends them: built into the jar by npm (Maven's
 * generate-resources ran server/console/build.sh into target/classes/console), with a strict
 * Content-Security-Policy, no inline code in the page, and revalidation by ETag.
 */
class ConsoleRoutesTest {
  private static TestServer server;

  @BeforeAll
  static void start() throws Exception {
    server = TestServer.startH2();
  }

  @AfterAll
  static void stop() throws Exception {
    server.close();
  }

  @Test
  void pageIsServedWithAStrictContentSecurityPolicy() throws Exception {
    HttpResponse<String> page = server.sendAs(null, "GET", "/ui", null);
    assertThat(page.statusCode()).isEqualTo(200);
    assertThat(page.headers().firstValue("Content-Type")).hasValue("text/html; charset=utf-8");
    String csp = page.headers().firstValue("Content-Security-Policy").orElseThrow();
    assertThat(csp)
        .contains("default-src 'none'", "script-src 'self'", "style-src 'self'")
        .contains("frame-ancestors 'none'", "base-uri 'none'")
        .doesNotContain("unsafe-inline", "unsafe-eval", "http:", "https:", "*");
    assertThat(page.headers().firstValue("X-Content-Type-Options")).hasValue("nosniff");
    assertThat(page.headers().firstValue("X-Frame-Options")).hasValue("DENY");
    assertThat(page.headers().firstValue("Referrer-Policy")).hasValue("no-referrer");
    assertThat(server.sendAs(null, "GET", "/ui/", null).body()).isEqualTo(page.body());
  }

  @Test
  void pageHasNoInlineCodeAndLoadsOnlyItsOwnAssets() throws Exception {
    String html = server.sendAs(null, "GET", "/ui", null).body();
    // Every <script> has a src on this origin and no body; no style attribute or <style> element.
    var scripts = Pattern.compile("<script([^>]*)>(.*?)</script>", Pattern.DOTALL).matcher(html);
    int count = 0;
    while (scripts.find()) {
      count++;
      assertThat(scripts.group(1)).contains("src=\"/ui/");
      assertThat(scripts.group(2)).isBlank();
    }
    assertThat(count).isEqualTo(1);
    assertThat(html).doesNotContain("<style", " style=", "javascript:", "//cdn", "https://");
    for (String asset : new String[] {"app.js", "app.css", "favicon.svg"}) {
      assertThat(html).contains("/ui/" + asset);
    }
  }

  @Test
  void assetsCarryTheirTypesAndRevalidateByETag() throws Exception {
    Map<String, String> types =
        Map.of(
            "app.js", "text/javascript; charset=utf-8",
            "app.css", "text/css; charset=utf-8",
            "favicon.svg", "image/svg+xml");
    for (var e : types.entrySet()) {
      HttpResponse<String> asset = server.sendAs(null, "GET", "/ui/" + e.getKey(), null);
      assertThat(asset.statusCode()).as(e.getKey()).isEqualTo(200);
      assertThat(asset.headers().firstValue("Content-Type")).hasValue(e.getValue());
      assertThat(asset.headers().firstValue("Cache-Control")).hasValue("no-cache");
      String etag = asset.headers().firstValue("ETag").orElseThrow();
      HttpResponse<String> again =
          server.sendAs(null, "GET", "/ui/" + e.getKey(), null, Map.of("If-None-Match", etag));
      assertThat(again.statusCode()).as(e.getKey() + " revalidated").isEqualTo(304);
      assertThat(again.body()).isEmpty();
    }
    // The bundle reaches no other origin at run time (the SVG/MathML namespaces are names).
    String js = server.sendAs(null, "GET", "/ui/app.js", null).body();
    assertThat(js.replaceAll("http://www\\.w3\\.org/[0-9A-Za-z/]+", ""))
        .doesNotContain("http://", "https://");
  }

  @Test
  void unknownAssetIsAnErrorResponseAndTheRootRedirects() throws Exception {
    HttpResponse<String> missing = server.sendAs(null, "GET", "/ui/secrets.json", null);
    assertThat(missing.statusCode()).isEqualTo(404);
    assertThat(TestServer.json(missing.body()).path("error").path("message").asText())
        .isEqualTo("No console asset secrets.json");
    HttpResponse<String> root = server.sendAs(null, "GET", "/", null);
    assertThat(root.statusCode()).isEqualTo(302);
    assertThat(root.headers().firstValue("Location")).hasValue("/ui/");
  }

  @Test
  void aBuildWithoutTheConsoleSaysSo() throws Exception {
    HttpServer.Routes routes = new HttpServer.Routes();
    new ConsoleRoutes("no-such-folder").register(routes);
    Route page = routes.build().get(1);
    Reply reply = page.handler().handle(null);
    assertThat(reply.status()).isEqualTo(404);
    assertThat(((org.apache.iceberg.rest.responses.ErrorResponse) reply.body()).message())
        .contains("not bundled");
  }
}
