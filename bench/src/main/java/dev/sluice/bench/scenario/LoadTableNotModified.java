package dev.sluice.bench.scenario;

import dev.sluice.bench.http.HttpConnection;
import dev.sluice.bench.http.HttpResult;
import dev.sluice.bench.http.RequestEncoder;
import dev.sluice.bench.load.Operation;
import dev.sluice.bench.load.OperationFailed;
import dev.sluice.bench.load.RequestSource;
import dev.sluice.bench.load.Workload;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.Arrays;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;

/**
 * A client revalidating the table it holds (issue 18): every client loads one table with {@code
 * If-None-Match} naming the ETag of its current answer, as Iceberg Java 1.11's table cache does;
 * the answer must be {@code 304 Not Modified}. Only targets whose loads carry an ETag run it.
 * {@code loadTable-304} revalidates {@code bench.t0} (compare with loadTable-hot, the same load
 * answered in full: a small cached body, so little to save); {@code loadTable-large-304}
 * revalidates {@code bench_large.large} (compare with loadTable-large), where a full answer is the
 * metadata of its whole history.
 */
public final class LoadTableNotModified implements Scenario {
  private final String name;
  private final String namespace;
  private final String table;
  private final String description;

  /** {@code loadTable-304}: {@code bench.t0}. */
  public LoadTableNotModified() {
    this(
        "loadTable-304",
        Fixture.READ_NAMESPACE,
        Fixture.readTable(0),
        "GET bench.t0 with If-None-Match of its current ETag by every client (304, no body)");
  }

  private LoadTableNotModified(String name, String namespace, String table, String description) {
    this.name = Objects.requireNonNull(name, "name");
    this.namespace = Objects.requireNonNull(namespace, "namespace");
    this.table = Objects.requireNonNull(table, "table");
    this.description = Objects.requireNonNull(description, "description");
  }

  /** {@code loadTable-large-304}: {@code bench_large.large}, revalidated. */
  public static LoadTableNotModified large() {
    return new LoadTableNotModified(
        "loadTable-large-304",
        Fixture.LARGE_NAMESPACE,
        Fixture.LARGE_TABLE,
        "GET bench_large.large with If-None-Match of its current ETag by every client (304, no"
            + " body)");
  }

  @Override
  public String name() {
    return name;
  }

  @Override
  public String description() {
    return description;
  }

  @Override
  public boolean appliesTo(ScenarioContext context) throws IOException {
    return etag(context).isPresent();
  }

  @Override
  public Workload prepare(ScenarioContext context) throws IOException {
    String path = path(context);
    String etag =
        etag(context).orElseThrow(() -> new IOException("The load of " + path + " has no ETag"));
    Map<String, String> headers = Map.of("If-None-Match", etag);
    String what = "load " + path + " If-None-Match " + etag;
    return new Workload() {
      @Override
      public Operation operation(int client, HttpConnection http) {
        return () -> {
          HttpResult result = http.send("GET", path, null, null, headers);
          if (result.status() != 304) {
            throw new OperationFailed(what, result);
          }
          return 0;
        };
      }

      @Override
      public RequestSource requests(int client, RequestEncoder encoder) {
        byte[] request = encoder.encode("GET", path, null, null, headers);
        return new RequestSource() {
          @Override
          public byte[] next() {
            return request;
          }

          @Override
          public String check(int status, byte[] body, int length) {
            return status == 304
                ? null
                : new OperationFailed(what, new HttpResult(status, Arrays.copyOf(body, length)))
                    .getMessage();
          }
        };
      }
    };
  }

  private String path(ScenarioContext context) {
    return context.endpoint().table(namespace, table);
  }

  /** The ETag of the table's current answer to this target's principal, if it sends one. */
  private Optional<String> etag(ScenarioContext context) throws IOException {
    var endpoint = context.endpoint();
    HttpRequest.Builder request =
        HttpRequest.newBuilder(
                URI.create("http://" + endpoint.host() + ":" + endpoint.port() + path(context)))
            .timeout(Duration.ofSeconds(30));
    if (endpoint.authorization() != null) {
      request.header("Authorization", endpoint.authorization());
    }
    try {
      HttpResponse<Void> response =
          HttpClient.newHttpClient().send(request.build(), HttpResponse.BodyHandlers.discarding());
      if (response.statusCode() != 200) {
        throw new IOException("Load of " + path(context) + ": HTTP " + response.statusCode());
      }
      return response.headers().firstValue("ETag");
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IOException("Interrupted", e);
    }
  }
}
