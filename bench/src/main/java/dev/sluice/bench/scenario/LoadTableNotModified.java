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
import java.util.Optional;

/**
 * A client revalidating the table it holds (issue 18): every client loads {@code bench.t0} with
 * {@code If-None-Match} naming the ETag of its current answer, as Iceberg Java 1.11's table cache
 * does; the answer must be {@code 304 Not Modified}. Only targets whose loads carry an ETag run it.
 * Compare with loadTable-hot, the same load answered in full.
 */
public final class LoadTableNotModified implements Scenario {
  @Override
  public String name() {
    return "loadTable-304";
  }

  @Override
  public String description() {
    return "GET bench.t0 with If-None-Match of its current ETag by every client (304, no body)";
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

  private static String path(ScenarioContext context) {
    return context.endpoint().table(Fixture.READ_NAMESPACE, Fixture.readTable(0));
  }

  /** The ETag of the table's current answer to this target's principal, if it sends one. */
  private static Optional<String> etag(ScenarioContext context) throws IOException {
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
