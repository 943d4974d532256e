package dev.sluice.bench.scenario;

import dev.sluice.bench.catalog.Json;
import dev.sluice.bench.http.HttpConnection;
import dev.sluice.bench.http.HttpResult;
import dev.sluice.bench.http.RequestEncoder;
import dev.sluice.bench.load.Operation;
import dev.sluice.bench.load.OperationFailed;
import dev.sluice.bench.load.RequestSource;
import dev.sluice.bench.load.Workload;
import java.io.IOException;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;

/**
 * Clients walk the listing of the M fixture tables page by page, following next-page-token and
 * starting over after the last page. One operation = one page, so it runs on the event loop too:
 * there each client's next request is built from the token its last response carried.
 */
public final class ListTablesPaged implements Scenario {
  @Override
  public String name() {
    return "listTables-paged";
  }

  @Override
  public String description() {
    return "GET one page of bench's tables (pageSize P), following next-page-token";
  }

  @Override
  public Workload prepare(ScenarioContext context) {
    String first =
        context.endpoint().tables(Fixture.READ_NAMESPACE) + "?pageSize=" + context.pageSize();
    return new Workload() {
      @Override
      public Operation operation(int client, HttpConnection http) {
        return new Operation() {
          private String token;

          @Override
          public int run() throws IOException {
            String path = page(first, token);
            HttpResult result = http.get(path);
            if (!result.ok()) {
              throw new OperationFailed("list " + path, result);
            }
            token = nextToken(result.body(), 0, result.body().length);
            return 0;
          }
        };
      }

      @Override
      public RequestSource requests(int client, RequestEncoder encoder) {
        return new RequestSource() {
          private String token;
          private String path;

          @Override
          public byte[] next() {
            path = page(first, token);
            return encoder.get(path);
          }

          @Override
          public String check(int status, byte[] body, int length) {
            if (status < 200 || status >= 300) {
              return RequestSource.unless2xx("list " + path, status, body, length);
            }
            try {
              token = nextToken(body, 0, length);
              return null;
            } catch (IOException | RuntimeException e) {
              token = null;
              return "list " + path + ": unreadable page: " + e.getMessage();
            }
          }
        };
      }
    };
  }

  private static String page(String first, String token) {
    return token == null
        ? first
        : first + "&pageToken=" + URLEncoder.encode(token, StandardCharsets.UTF_8);
  }

  /** The page's next-page-token; null after the last page (the walk starts over). */
  private static String nextToken(byte[] body, int offset, int length) throws IOException {
    String next = Json.topLevelText(body, offset, length, "next-page-token");
    return next == null || next.isEmpty() ? null : next;
  }
}
