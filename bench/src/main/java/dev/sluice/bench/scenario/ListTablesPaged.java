package dev.sluice.bench.scenario;

import dev.sluice.bench.catalog.Json;
import dev.sluice.bench.http.HttpResult;
import dev.sluice.bench.load.Operation;
import dev.sluice.bench.load.OperationFailed;
import dev.sluice.bench.load.Workload;
import java.io.IOException;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;

/**
 * Clients walk the listing of the M fixture tables page by page, following next-page-token and
 * starting over after the last page. One operation = one page.
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
    return (client, http) ->
        new Operation() {
          private String token;

          @Override
          public int run() throws IOException {
            String path =
                token == null
                    ? first
                    : first + "&pageToken=" + URLEncoder.encode(token, StandardCharsets.UTF_8);
            HttpResult result = http.get(path);
            if (!result.ok()) {
              throw new OperationFailed("list " + path, result);
            }
            String next = Json.topLevelText(result.body(), "next-page-token");
            token = next == null || next.isEmpty() ? null : next;
            return 0;
          }
        };
  }
}
