package dev.sluice.http;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import dev.sluice.testing.TestServer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import java.util.stream.IntStream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The Grafana dashboard and the Prometheus alert rules in {@code docs/monitoring/} are built on
 * names a running server exports: every metric their queries name is a sample name of a real
 * scrape, and every label value they match on ({@code uri}, {@code pool}, {@code area}) is one the
 * scrape has; an {@code outcome} is one {@link RequestMetrics} gives some status.
 */
class MonitoringDocsTest {
  private static final Path DOCS = Path.of("../docs/monitoring");

  /** A metric name in a PromQL query: one of the families Sluice exports. */
  private static final Pattern METRIC =
      Pattern.compile("\\b((?:http_server|jvm|process|system|hikaricp|sluice)_[a-z_]+)\\b");

  /** A label matcher with a literal value ({@code uri="…"}). */
  private static final Pattern LABEL =
      Pattern.compile("\\b(uri|pool|outcome|area|method)=\"([^\"]+)\"");

  private static TestServer server;
  private static Set<String> samples;
  private static String scrape;

  @BeforeAll
  static void start() throws Exception {
    server = TestServer.startH2();
    String lake = server.createCatalog("lake");
    server.send("POST", "/api/catalog/v1/" + lake + "/namespaces", "{\"namespace\": [\"ns\"]}");
    server.send(
        "POST",
        "/api/catalog/v1/" + lake + "/namespaces/ns/tables",
        "{\"name\": \"t\", \"schema\": {\"type\": \"struct\", \"fields\": []}}");
    server.send("GET", "/api/catalog/v1/" + lake + "/namespaces/ns/tables/t", null);
    server.send("POST", "/api/catalog/v1/" + lake + "/namespaces/ns/tables/t", "{\"updates\": []}");
    // The GC pause timer exists once a collection is reported, and the JVM reports it on its own
    // thread after the collection: ask for one and wait for the report.
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(20);
    do {
      System.gc();
      Thread.sleep(50);
      scrape = server.send("GET", "/metrics", null).body();
    } while (!scrape.contains("jvm_gc_pause_seconds_sum") && System.nanoTime() < deadline);
    samples =
        scrape
            .lines()
            .filter(line -> !line.startsWith("#") && !line.isBlank())
            .map(line -> line.split("[{ ]", 2)[0])
            .collect(Collectors.toCollection(TreeSet::new));
  }

  @AfterAll
  static void stop() throws Exception {
    server.close();
  }

  private static List<String> dashboardQueries() throws Exception {
    JsonNode dashboard =
        new ObjectMapper().readTree(DOCS.resolve("sluice-dashboard.json").toFile());
    List<String> out = new ArrayList<>();
    dashboard
        .get("panels")
        .forEach(p -> p.get("targets").forEach(t -> out.add(t.get("expr").asText())));
    return out;
  }

  private static List<String> alertQueries() throws Exception {
    JsonNode rules =
        new ObjectMapper(new YAMLFactory()).readTree(DOCS.resolve("sluice-alerts.yaml").toFile());
    List<String> out = new ArrayList<>();
    rules.get("groups").forEach(g -> g.get("rules").forEach(r -> out.add(r.get("expr").asText())));
    return out;
  }

  private static void assertExported(List<String> queries) {
    assertThat(queries).isNotEmpty();
    for (String query : queries) {
      Matcher metric = METRIC.matcher(query);
      int names = 0;
      while (metric.find()) {
        names++;
        assertThat(samples).as("metric in %s", query).contains(metric.group(1));
      }
      Matcher label = LABEL.matcher(query);
      while (label.find()) {
        if (label.group(1).equals("outcome")) {
          String outcome = label.group(2);
          assertThat(IntStream.range(100, 600).mapToObj(RequestMetrics::outcome))
              .as("outcome in %s", query)
              .contains(outcome);
          continue;
        }
        assertThat(scrape)
            .as("label %s in %s", label.group(), query)
            .contains(label.group(1) + "=\"" + label.group(2) + "\"");
      }
      assertThat(names + (query.contains("up{") ? 1 : 0)).as(query).isPositive();
    }
  }

  @Test
  void theDashboardsQueriesNameExportedMetrics() throws Exception {
    assertExported(dashboardQueries());
    assertThat(dashboardQueries()).hasSizeGreaterThanOrEqualTo(10);
  }

  @Test
  void theAlertRulesNameExportedMetrics() throws Exception {
    assertExported(alertQueries());
    assertThat(alertQueries()).hasSizeGreaterThanOrEqualTo(6);
  }

  @Test
  void aWrongNameWouldBeCaught() {
    assertThat(samples).doesNotContain("http_server_requests_total", "sluice_vending_hits_total");
    assertThat(Files.exists(DOCS.resolve("sluice-dashboard.json"))).isTrue();
  }
}
