package dev.sluice.cli;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** {@code sluice events list}: the actor (an engine acting for a user) as a filter and a column. */
class EventsCommandTest {
  private static final String DIRECT =
      "{\"id\":2,\"timestamp\":0,\"principal\":\"root\",\"activatedRoles\":[],"
          + "\"action\":\"listCatalogs\",\"securable\":\"catalogs\",\"decision\":\"ALLOW\","
          + "\"requestId\":\"r2\",\"count\":1,\"lastTimestamp\":0}";
  private static final String DELEGATED =
      "{\"id\":1,\"timestamp\":0,\"principal\":\"jane\",\"actor\":\"trino\","
          + "\"activatedRoles\":[\"analysts\"],\"action\":\"loadTable\",\"catalog\":\"lake\","
          + "\"securable\":\"sales.orders\",\"decision\":\"ALLOW\",\"requestId\":\"r1\","
          + "\"count\":1,\"lastTimestamp\":0}";

  private FakeServer server;

  @BeforeEach
  void start() throws Exception {
    server = FakeServer.start();
  }

  @AfterEach
  void stop() {
    server.close();
  }

  @Test
  void theActorColumnShowsWhenAnEngineActedForSomeone() {
    server.answer("GET", "/events", 200, "{\"events\":[" + DIRECT + "," + DELEGATED + "]}");

    Cli.Result result = Cli.run(server, "events", "list");

    assertThat(result.exit()).as(result.err()).isZero();
    assertThat(result.out())
        .isEqualTo(
            "TIME                  PRINCIPAL  ACTOR  ACTION        CATALOG  SECURABLE     DECISION\n"
                + "1970-01-01T00:00:00Z  root       -      listCatalogs  -        catalogs      ALLOW\n"
                + "1970-01-01T00:00:00Z  jane       trino  loadTable     lake     sales.orders  ALLOW\n");
  }

  @Test
  void withoutActorsTheTableIsAsBefore() {
    server.answer("GET", "/events", 200, "{\"events\":[" + DIRECT + "]}");

    Cli.Result result = Cli.run(server, "events", "list");

    assertThat(result.exit()).as(result.err()).isZero();
    assertThat(result.out())
        .startsWith("TIME                  PRINCIPAL  ACTION  ")
        .doesNotContain("ACTOR");
  }

  @Test
  void actorFiltersOnTheServer() {
    server.answer("GET", "/events", 200, "{\"events\":[" + DELEGATED + "]}");

    Cli.Result result =
        Cli.run(server, "events", "list", "--actor", "trino", "--principal", "jane");

    assertThat(result.exit()).as(result.err()).isZero();
    assertThat(server.onlyCall().query()).contains("principal=jane").contains("actor=trino");
    assertThat(
            Cli.json(server, "events", "list", "--actor", "trino")
                .json()
                .at("/events/0/actor")
                .asText())
        .isEqualTo("trino");
  }
}
