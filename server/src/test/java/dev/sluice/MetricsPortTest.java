package dev.sluice;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.sluice.config.ConfigException;
import dev.sluice.config.ServerConfig;
import dev.sluice.testing.TestServer;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code server.metricsPort}: set, that port answers {@code /metrics} and nothing else, and the
 * main port no longer answers it; absent, the main port serves it as before.
 */
class MetricsPortTest {
  private final HttpClient http = HttpClient.newHttpClient();

  @Test
  void aMetricsPortAloneServesTheScrapeAndNothingElse() throws Exception {
    try (TestServer s = TestServer.start(null, "server:\n  metricsPort: 0\n")) {
      int metricsPort = s.server().metricsPort();
      assertThat(metricsPort).isPositive().isNotEqualTo(s.server().port());
      String token = s.rootToken();
      assertThat(s.send("GET", "/api/management/v1/principals", null).statusCode()).isEqualTo(200);

      HttpResponse<String> scrape = get(metricsPort, "/metrics", null);
      assertThat(scrape.statusCode()).isEqualTo(200);
      assertThat(scrape.body())
          .as("the server's own families, the HTTP and JVM ones")
          .contains("sluice_build_info")
          .contains("http_server_requests_seconds_count")
          .contains("jvm_memory_used_bytes");

      HttpResponse<String> onMain = get(s.server().port(), "/metrics", null);
      assertThat(onMain.statusCode()).isEqualTo(404);
      assertThat(TestServer.json(onMain.body()).path("error").path("code").asInt()).isEqualTo(404);

      for (String path : new String[] {"/healthz", "/api/catalog/v1/config", "/ui/"}) {
        HttpResponse<String> other = get(metricsPort, path, token);
        assertThat(other.statusCode()).as("GET %s on the metrics port", path).isEqualTo(404);
        assertThat(TestServer.json(other.body()).path("error").path("type").asText())
            .isEqualTo("NotFound");
      }
      assertThat(get(s.server().port(), "/healthz", null).statusCode()).isEqualTo(200);
    }
  }

  @Test
  void withoutAMetricsPortTheMainPortServesTheScrape() throws Exception {
    try (TestServer s = TestServer.startH2()) {
      assertThat(s.server().metricsPort()).isEqualTo(-1);
      HttpResponse<String> scrape = get(s.server().port(), "/metrics", null);
      assertThat(scrape.statusCode()).isEqualTo(200);
      assertThat(scrape.body()).contains("sluice_build_info");
    }
  }

  @Test
  void aMetricsPortOutOfRangeOrOnTheMainPortIsRefusedNamingTheKey(@TempDir Path dir)
      throws Exception {
    Path file = dir.resolve("sluice.yaml");
    Files.writeString(file, "server:\n  port: 8181\n  metricsPort: 8181\n");
    assertThatThrownBy(() -> load(file))
        .isInstanceOf(ConfigException.class)
        .hasMessageContaining("server.metricsPort must differ from server.port");
    Files.writeString(file, "server:\n  metricsPort: 70000\n");
    assertThatThrownBy(() -> load(file))
        .isInstanceOf(ConfigException.class)
        .hasMessageContaining("server.metricsPort")
        .hasMessageContaining("70000");
  }

  private static ServerConfig load(Path file) {
    return ServerConfig.load(
        file, ServerConfig.Overrides.NONE, k -> null, StandardBackends.create());
  }

  private HttpResponse<String> get(int port, String path, String token) throws Exception {
    HttpRequest.Builder request =
        HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + path));
    if (token != null) {
      request.header("Authorization", "Bearer " + token);
    }
    return http.send(request.GET().build(), HttpResponse.BodyHandlers.ofString());
  }
}
