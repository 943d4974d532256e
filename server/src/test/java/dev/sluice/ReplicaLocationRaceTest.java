package dev.sluice;

import static org.assertj.core.api.Assertions.assertThat;

import dev.sluice.testing.NeedsTestBeds;
import dev.sluice.testing.PostgresTestDatabase;
import dev.sluice.testing.TestServer;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Two replicas on one PostgreSQL, 16 concurrent creates through the REST API whose locations all
 * overlap (each nested in the previous), half on each replica: exactly one wins, every round, and
 * every loser is a 403 ErrorResponse.
 */
@NeedsTestBeds
class ReplicaLocationRaceTest {
  private static final int RACERS = 16;
  private static final int ROUNDS = 50;
  private static TestServer a;
  private static TestServer b;
  private static String catalog;
  private static Path warehouse;

  @BeforeAll
  static void start() throws Exception {
    String url = PostgresTestDatabase.fresh();
    a = TestServer.start(url);
    b = TestServer.start(url);
    warehouse = a.dataDir().resolve("race");
    catalog = a.createCatalog("race", List.of(warehouse.toUri().toString()), warehouse);
    assertThat(
            a.send(
                    "POST",
                    "/api/catalog/v1/" + catalog + "/namespaces",
                    "{\"namespace\": [\"ns\"]}")
                .statusCode())
        .isEqualTo(200);
  }

  @AfterAll
  static void stop() throws Exception {
    a.close();
    b.close();
  }

  @Test
  void ofSixteenConcurrentOverlappingCreatesOnTwoReplicasExactlyOneWinsEveryRound()
      throws Exception {
    String tokenA = a.rootToken();
    String tokenB = b.token(TestServer.CLIENT_ID, TestServer.SECRET);
    String tables = "/api/catalog/v1/" + catalog + "/namespaces/ns/tables";
    ExecutorService pool = Executors.newFixedThreadPool(RACERS);
    try {
      for (int round = 0; round < ROUNDS; round++) {
        CountDownLatch go = new CountDownLatch(1);
        List<Future<HttpResponse<String>>> results = new ArrayList<>();
        for (int i = 0; i < RACERS; i++) {
          String location =
              warehouse.resolve("ns").toUri().toString().replaceAll("/$", "")
                  + "/r"
                  + round
                  + "/a"
                  + "/a".repeat(i);
          String body =
              "{\"name\": \"r"
                  + round
                  + "_"
                  + i
                  + "\", \"location\": \""
                  + location
                  + "\","
                  + " \"schema\": {\"type\": \"struct\", \"schema-id\": 0, \"fields\": ["
                  + "{\"id\": 1, \"name\": \"id\", \"required\": false, \"type\": \"long\"}]}}";
          TestServer replica = i % 2 == 0 ? a : b;
          String token = i % 2 == 0 ? tokenA : tokenB;
          results.add(
              pool.submit(
                  () -> {
                    go.await();
                    return replica.sendAs(token, "POST", tables, body);
                  }));
        }
        go.countDown();
        int winners = 0;
        for (Future<HttpResponse<String>> result : results) {
          HttpResponse<String> response = result.get();
          if (response.statusCode() == 200) {
            winners++;
          } else {
            assertThat(response.statusCode()).as(response.body()).isEqualTo(403);
            assertThat(TestServer.json(response.body()).at("/error/message").asText())
                .contains("overlaps");
          }
        }
        assertThat(winners).as("winners in round " + round).isEqualTo(1);
      }
    } finally {
      pool.shutdownNow();
    }
    HttpResponse<String> listed = a.send("GET", tables + "?pageSize=1000", null);
    assertThat(TestServer.json(listed.body()).get("identifiers")).hasSize(ROUNDS);
  }
}
