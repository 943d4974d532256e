package dev.sluice.bench.http;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.Map;

/**
 * java.net.http over HTTP/1.1. One {@link HttpClient} serves all connections of a run: it keeps a
 * pool of kept-alive connections, so N threads sending at once hold N connections.
 */
final class JdkHttpClients implements HttpClients {
  private final HttpClient client =
      HttpClient.newBuilder()
          .version(HttpClient.Version.HTTP_1_1)
          .connectTimeout(Duration.ofSeconds(5))
          .build();
  private final String base;
  private final String authorization;

  JdkHttpClients(String host, int port, String authorization) {
    this.base = "http://" + host + ":" + port;
    this.authorization = authorization;
  }

  @Override
  public HttpConnection open() {
    return new HttpConnection() {
      @Override
      public HttpResult send(
          String method,
          String pathAndQuery,
          byte[] body,
          String contentType,
          Map<String, String> headers)
          throws IOException {
        HttpRequest.Builder request =
            HttpRequest.newBuilder(URI.create(base + pathAndQuery))
                .timeout(Duration.ofSeconds(60))
                .header("Accept", "application/json")
                .method(
                    method,
                    body == null
                        ? HttpRequest.BodyPublishers.noBody()
                        : HttpRequest.BodyPublishers.ofByteArray(body));
        if (body != null) {
          request.header("Content-Type", contentType);
        }
        if (authorization != null) {
          request.header("Authorization", authorization);
        }
        headers.forEach(request::header);
        try {
          HttpResponse<byte[]> response =
              client.send(request.build(), HttpResponse.BodyHandlers.ofByteArray());
          return new HttpResult(response.statusCode(), response.body());
        } catch (InterruptedException e) {
          Thread.currentThread().interrupt();
          throw new IOException("Interrupted", e);
        }
      }

      @Override
      public void close() {
        // the pooled connections belong to the shared client
      }
    };
  }

  @Override
  public String kind() {
    return "jdk";
  }

  @Override
  public void close() {
    // HttpClient has no close() before Java 21; its connections end with the JVM or idle out.
  }
}
