package dev.sluice;

import static org.assertj.core.api.Assertions.assertThat;

import dev.sluice.testing.TestServer;
import java.net.http.HttpResponse;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * What {@code /metrics} shows an on-call engineer, scraped after a few requests: requests by route
 * template, method and status as a histogram (a table's name never a label), the JVM, the process,
 * the store's connection pool, the build, and the vending meters from start-up, before any vend.
 */
class ServerMetricsTest {
  private static final String TABLES = "/api/catalog/v1/{prefix}/namespaces/{namespace}/tables";

  private static TestServer server;
  private static String scrape;

  @BeforeAll
  static void start() throws Exception {
    server = TestServer.startH2();
    String lake = server.createCatalog("lake");
    ok(server.send("POST", "/api/catalog/v1/" + lake + "/namespaces", "{\"namespace\": [\"ns\"]}"));
    ok(
        server.send(
            "POST",
            "/api/catalog/v1/" + lake + "/namespaces/ns/tables",
            "{\"name\": \"secret_table_name\", \"schema\": {\"type\": \"struct\", \"fields\": []}}"));
    ok(server.send("GET", "/api/catalog/v1/" + lake + "/namespaces/ns/tables", null));
    ok(server.send("GET", "/api/catalog/v1/" + lake + "/namespaces/ns/tables", null));
    assertThat(
            server
                .send("GET", "/api/catalog/v1/" + lake + "/namespaces/ns/tables/nope", null)
                .statusCode())
        .isEqualTo(404);
    assertThat(server.send("BREW", "/no/such/route", null).statusCode()).isEqualTo(404);
    HttpResponse<String> metrics = server.send("GET", "/metrics", null);
    assertThat(metrics.statusCode()).isEqualTo(200);
    scrape = metrics.body();
  }

  @AfterAll
  static void stop() throws Exception {
    server.close();
  }

  private static void ok(HttpResponse<String> response) {
    assertThat(response.statusCode()).as(response.body()).isBetween(200, 299);
  }

  @Test
  void requestsAreCountedByRouteTemplateMethodAndStatusAsAHistogram() {
    assertThat(value("http_server_requests_seconds_count", "GET", TABLES, "200")).isEqualTo(2);
    assertThat(value("http_server_requests_seconds_count", "POST", TABLES, "200")).isEqualTo(1);
    assertThat(value("http_server_requests_seconds_count", "GET", TABLES + "/{table}", "404"))
        .isEqualTo(1);
    assertThat(scrape)
        .contains(
            "http_server_requests_seconds_bucket{method=\"GET\",outcome=\"SUCCESS\",status=\"200\","
                + "uri=\""
                + TABLES
                + "\",le=\"0.001\"}")
        .contains("le=\"+Inf\"");
    // An unmatched request is one series whatever its path or method; no name becomes a label.
    assertThat(value("http_server_requests_seconds_count", "OTHER", "UNMATCHED", "404"))
        .isEqualTo(1);
    assertThat(scrape).doesNotContain("secret_table_name").doesNotContain("/no/such/route");
  }

  @Test
  void theJvmProcessPoolAndBuildAreThere() {
    assertThat(scrape)
        .contains("jvm_memory_used_bytes{")
        .contains("jvm_gc_")
        .contains("jvm_threads_live_threads ")
        .contains("jvm_classes_loaded_classes ")
        .contains("process_cpu_usage ")
        .contains("process_uptime_seconds ")
        .contains("system_cpu_count ")
        .contains("hikaricp_connections_active{pool=\"sluice-store\"}")
        .contains("hikaricp_connections_max{pool=\"sluice-store\"} 10.0")
        .contains("sluice_build_info{version=\"" + BuildInfo.version() + "\"} 1");
    assertThat(BuildInfo.version()).isNotEqualTo("unknown").matches("\\d+\\.\\d+\\.\\d+.*");
  }

  @Test
  void vendingMetersAreThereFromStartUpBeforeAnyVend() {
    for (String backend : List.of("s3", "r2", "gcs", "azure")) {
      assertThat(scrape)
          .contains("sluice_vending_cache_hits_total{backend=\"" + backend + "\"} 0.0")
          .contains("sluice_vending_provider_calls_total{backend=\"" + backend + "\"} 0.0")
          .contains("sluice_vending_provider_latency_seconds_count{backend=\"" + backend + "\"} 0");
    }
  }

  /**
   * The value of {@code family}'s sample for a method, route template and status (templates hold
   * braces, so a sample's labels are everything between the line's first and last brace).
   */
  private static double value(String family, String method, String uri, String status) {
    Pattern sample = Pattern.compile("(?m)^" + Pattern.quote(family) + "\\{(.*)\\} ([0-9.eE+-]+)$");
    Matcher m = sample.matcher(scrape);
    while (m.find()) {
      String labels = m.group(1);
      if (labels.contains("method=\"" + method + "\"")
          && labels.contains("uri=\"" + uri + "\"")
          && labels.contains("status=\"" + status + "\"")) {
        return Double.parseDouble(m.group(2));
      }
    }
    throw new AssertionError(
        family + " has no sample for " + method + " " + uri + " " + status + " in:\n" + scrape);
  }
}
