package dev.sluice.tracing;

import static org.assertj.core.api.Assertions.assertThat;

import com.sun.net.httpserver.HttpServer;
import dev.sluice.config.TracingSection;
import io.opentelemetry.api.trace.Span;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.Test;

/**
 * {@code tracing.enabled: true} exports for real: spans go by OTLP over HTTP (protobuf, through the
 * JDK's HTTP client) to {@code tracing.endpoint}, here a local HTTP server standing in for a
 * collector, which reads the posted body; off, nothing is made.
 */
class TracingOtlpTest {
  private record Post(String path, String contentType, byte[] body) {}

  @Test
  void anEnabledTracerPostsItsSpansAsOtlpProtobufToTheEndpoint() throws Exception {
    List<Post> posts = new CopyOnWriteArrayList<>();
    HttpServer collector = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
    collector.createContext(
        "/",
        exchange -> {
          posts.add(
              new Post(
                  exchange.getRequestURI().getPath(),
                  exchange.getRequestHeaders().getFirst("Content-Type"),
                  exchange.getRequestBody().readAllBytes()));
          exchange.sendResponseHeaders(200, -1);
          exchange.close();
        });
    collector.start();
    try {
      String endpoint = "http://127.0.0.1:" + collector.getAddress().getPort() + "/v1/traces";
      Tracing tracing = Tracing.of(new TracingSection(true, endpoint, "sluice-test", 100), "9.9");
      assertThat(tracing.enabled()).isTrue();
      Span span = tracing.tracer().spanBuilder("GET /probe").startSpan();
      String traceId = span.getSpanContext().getTraceId();
      span.end();
      tracing.close(); // flushes the batch
      assertThat(posts).hasSize(1);
      Post post = posts.get(0);
      assertThat(post.path()).isEqualTo("/v1/traces");
      assertThat(post.contentType()).isEqualTo("application/x-protobuf");
      // The protobuf holds its strings as they are: the span's name and the service's.
      String body = new String(post.body(), StandardCharsets.ISO_8859_1);
      assertThat(body).contains("GET /probe").contains("sluice-test").contains("9.9");
      assertThat(post.body()).containsSequence(hex(traceId));
    } finally {
      collector.stop(0);
    }
    assertThat(Tracing.of(TracingSection.DEFAULT, "9.9").enabled()).isFalse();
  }

  private static byte[] hex(String hex) {
    byte[] out = new byte[hex.length() / 2];
    for (int i = 0; i < out.length; i++) {
      out[i] = (byte) Integer.parseInt(hex.substring(2 * i, 2 * i + 2), 16);
    }
    return out;
  }
}
