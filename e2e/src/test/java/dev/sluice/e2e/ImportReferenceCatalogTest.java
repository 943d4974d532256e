package dev.sluice.e2e;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.TestMethodOrder;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * {@code sluice catalogs import} from Iceberg's reference REST server (a process, JdbcCatalog on
 * SQLite, a local warehouse) into a Sluice process, by the CLI as a user runs it: 1,002 tables and
 * 4 views in nested namespaces. A dry run changes nothing; a run killed part-way is resumed by the
 * next one, which registers only what is missing; a re-run finds everything unchanged; a table
 * whose location lies inside another's is skipped with the reason; {@code --freeze-source} is
 * refused for a source that is not a Sluice.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
@ExtendWith(OrderedSteps.class)
class ImportReferenceCatalogTest {
  private static final ObjectMapper JSON = new ObjectMapper();
  private static final int BULK = 1000;
  private static final int TABLES = BULK + 2;
  private static final int VIEWS = 4;
  private static final String SCHEMA =
      "{\"type\":\"struct\",\"schema-id\":0,\"fields\":"
          + "[{\"id\":1,\"name\":\"id\",\"type\":\"long\",\"required\":true}]}";
  private static final Pattern SUMMARY =
      Pattern.compile("(\\d+) registered, (\\d+) unchanged, (\\d+) skipped");

  private Path workDir;
  private String warehouse;
  private ReferenceServerProcess reference;
  private SluiceServerProcess sluice;
  private String token;
  private int registeredBeforeKill;

  /**
   * The target allows unstructured locations: Iceberg's JdbcCatalog places a nested namespace
   * beside its parent ({@code wh/nested.inner}, not {@code wh/nested/inner}), which Sluice's
   * structured rule refuses (the namespace, and so its tables, skipped with that reason).
   */
  @BeforeAll
  void start() throws Exception {
    workDir = Files.createTempDirectory("sluice-e2e-import-");
    Path folder = Files.createDirectories(workDir.resolve("wh"));
    warehouse = folder.toUri().toString().replaceAll("/$", "");
    long started = System.nanoTime();
    reference = ReferenceServerProcess.start("import", warehouse, Map.of());
    sluice = SluiceServerProcess.start("import");
    System.out.printf("servers up in %d ms%n", (System.nanoTime() - started) / 1_000_000);
    token = sluice.fetchToken();
    String catalog =
        "{\"catalog\":{\"name\":\"imported\",\"type\":\"INTERNAL\",\"properties\":"
            + "{\"default-base-location\":\"%s\",\"allowUnstructuredLocations\":\"true\"},"
            + "\"storageConfigInfo\":{\"storageType\":\"FILE\","
            + "\"allowedLocations\":[\"%s\"]}}}";
    ok(
        sluice.send(
            "POST", "/api/management/v1/catalogs", token, catalog.formatted(warehouse, warehouse)),
        201);
    seedSource();
  }

  /**
   * The source: 1,000 tables made in parallel, nested namespaces, views, two overlapping tables.
   */
  private void seedSource() throws Exception {
    long started = System.nanoTime();
    for (String namespace :
        List.of("[\"bulk\"]", "[\"nested\"]", "[\"nested\",\"inner\"]", "[\"clash\"]")) {
      ok(reference.send("POST", "/v1/namespaces", "{\"namespace\":" + namespace + "}"), 200);
    }
    ExecutorService pool = Executors.newFixedThreadPool(8);
    try {
      List<Future<HttpResponse<String>>> creates = new ArrayList<>();
      for (int i = 0; i < BULK; i++) {
        String name = "t%04d".formatted(i);
        creates.add(pool.submit(() -> createTable("bulk", name, null)));
      }
      for (Future<HttpResponse<String>> create : creates) {
        ok(create.get(), 200);
      }
    } finally {
      pool.shutdown();
    }
    ok(createTable("nested", "top", null), 200);
    ok(createTable("nested.inner", "deep", null), 200);
    for (String view : List.of("v1", "v2", "v3")) {
      ok(createView("bulk", "[\"bulk\"]", view), 200);
    }
    ok(createView("nested.inner", "[\"nested\",\"inner\"]", "v"), 200);
    ok(createTable("clash", "outer", null), 200);
    ok(createTable("clash", "outer_inner", warehouse + "/clash/outer/inner"), 200);
    System.out.printf(
        "source seeded: %d tables, %d views in %d ms%n",
        TABLES + 2, VIEWS, (System.nanoTime() - started) / 1_000_000);
  }

  private HttpResponse<String> createTable(String namespace, String name, String location) {
    String body =
        "{\"name\":\""
            + name
            + "\",\"schema\":"
            + SCHEMA
            + (location == null ? "" : ",\"location\":\"" + location + "\"")
            + "}";
    return reference.send("POST", "/v1/namespaces/" + namespace + "/tables", body);
  }

  private HttpResponse<String> createView(String namespace, String levels, String name) {
    String body =
        "{\"name\":\""
            + name
            + "\",\"schema\":"
            + SCHEMA
            + ",\"view-version\":{\"version-id\":1,"
            + "\"timestamp-ms\":1700000000000,\"schema-id\":0,\"summary\":{},\"default-namespace\":"
            + levels
            + ",\"representations\":[{\"type\":\"sql\",\"sql\":\"select 1 as id\","
            + "\"dialect\":\"spark\"}]},\"properties\":{}}";
    return reference.send("POST", "/v1/namespaces/" + namespace + "/views", body);
  }

  @AfterAll
  void stop() throws Exception {
    ProcessSupport.closeAll(reference, sluice);
    ProcessSupport.deleteRecursively(workDir);
  }

  private SluiceCli.Run importing(String... extra) {
    long started = System.nanoTime();
    List<String> args = new ArrayList<>(List.of("--namespace", "bulk", "--namespace", "nested"));
    args.addAll(List.of(extra));
    SluiceCli.Run run = importFrom(args.toArray(String[]::new));
    System.out.printf(
        "sluice %s: exit %d in %d ms%n",
        String.join(" ", extra), run.exit(), (System.nanoTime() - started) / 1_000_000);
    return run;
  }

  /** {@code sluice catalogs import imported --from <the reference server>} with {@code more}. */
  private SluiceCli.Run importFrom(String... more) {
    List<String> args =
        new ArrayList<>(List.of("catalogs", "import", "imported", "--from", reference.uri()));
    args.addAll(List.of(more));
    return SluiceCli.run(sluice, Map.of(), args.toArray(String[]::new));
  }

  @Test
  @Order(1)
  void stepADryRunReportsEverythingAndChangesNothing() throws Exception {
    SluiceCli.Run dry = importing("--dry-run");

    assertThat(dry.exit()).as(dry.err()).isZero();
    assertThat(dry.out())
        .contains("(dry run: nothing is written)")
        .contains("namespace nested.inner: would create")
        .contains("[1/" + (TABLES + VIEWS) + "] table bulk.t0000: would register")
        .contains("view nested.inner.v: would register")
        .contains(
            "dry run: %d tables, %d views: %d would register, 0 unchanged, 0 skipped"
                .formatted(TABLES, VIEWS, TABLES + VIEWS));
    JsonNode namespaces =
        JSON.readTree(
            sluice.send("GET", "/api/catalog/v1/imported/namespaces", token, null).body());
    assertThat(namespaces.path("namespaces")).isEmpty();
  }

  @Test
  @Order(2)
  void stepBARunKilledPartWayLeavesWhatItRegistered() {
    SluiceCli.Run killed =
        SluiceCli.run(
            sluice,
            Map.of(),
            line -> line.startsWith("[300/"),
            "catalogs",
            "import",
            "imported",
            "--from",
            reference.uri(),
            "--namespace",
            "bulk",
            "--namespace",
            "nested");

    assertThat(killed.exit()).isNotZero();
    registeredBeforeKill =
        (int) killed.out().lines().filter(l -> l.endsWith(": registered")).count();
    assertThat(registeredBeforeKill).isEqualTo(300);
    assertThat(killed.out()).doesNotContain("imported " + TABLES);
  }

  @Test
  @Order(3)
  void stepCTheNextRunRegistersOnlyWhatIsMissing() throws Exception {
    SluiceCli.Run resumed = importing();

    assertThat(resumed.exit()).as(resumed.out() + resumed.err()).isZero();
    Matcher summary = SUMMARY.matcher(resumed.out());
    assertThat(summary.find()).as(resumed.out()).isTrue();
    int registered = Integer.parseInt(summary.group(1));
    int unchanged = Integer.parseInt(summary.group(2));
    assertThat(registered + unchanged).isEqualTo(TABLES + VIEWS);
    // The run killed after its 300th line may have registered one more before it died.
    assertThat(unchanged).isBetween(registeredBeforeKill, registeredBeforeKill + 1);
    assertThat(summary.group(3)).isEqualTo("0");
    JsonNode tables =
        JSON.readTree(
            sluice
                .send(
                    "GET",
                    "/api/catalog/v1/imported/namespaces/bulk/tables?pageSize=1000",
                    token,
                    null)
                .body());
    assertThat(tables.path("identifiers")).hasSize(BULK);
    HttpResponse<String> deep =
        sluice.send(
            "GET", "/api/catalog/v1/imported/namespaces/nested%1Finner/tables/deep", token, null);
    ok(deep, 200);
    assertThat(JSON.readTree(deep.body()).path("metadata-location").asText())
        .startsWith(warehouse + "/nested.inner/deep/metadata/");
    ok(
        sluice.send(
            "GET", "/api/catalog/v1/imported/namespaces/nested%1Finner/views/v", token, null),
        200);
  }

  @Test
  @Order(4)
  void stepDAReRunFindsEverythingUnchanged() {
    SluiceCli.Run again = importing();

    assertThat(again.exit()).as(again.out() + again.err()).isZero();
    assertThat(again.out())
        .contains(
            "imported %d tables, %d views: %d unchanged, 0 skipped"
                .formatted(TABLES, VIEWS, TABLES + VIEWS))
        .doesNotContain(": registered");
  }

  @Test
  @Order(5)
  void aTableInsideAnothersLocationIsSkippedWithTheReason() {
    SluiceCli.Run dry = importFrom("--namespace", "clash", "--dry-run");
    assertThat(dry.exit()).isEqualTo(1);
    assertThat(dry.out())
        .contains("table clash.outer: would register")
        .contains(
            "table clash.outer_inner: skipped: its location "
                + warehouse
                + "/clash/outer/inner"
                + " overlaps that of table clash.outer");

    SluiceCli.Run real = importFrom("--namespace", "clash");

    assertThat(real.exit()).isEqualTo(1);
    assertThat(real.out())
        .contains("table clash.outer: registered")
        .contains("table clash.outer_inner: skipped: Invalid location")
        .contains("it overlaps the location of another table or view (HTTP 403)")
        .contains("1 registered, 0 unchanged, 1 skipped");
    assertThat(real.err()).contains("not everything was imported");
  }

  @Test
  @Order(6)
  void freezeSourceIsRefusedForASourceThatIsNotASluice() {
    SluiceCli.Run refused = importFrom("--namespace", "clash", "--freeze-source");

    assertThat(refused.exit()).isEqualTo(1);
    assertThat(refused.err())
        .contains("--freeze-source needs a source that enforces Sluice's write freeze")
        .contains("docs/MIGRATING.md");
    assertThat(refused.out()).isEmpty();
  }

  private static void ok(HttpResponse<String> response, int status) {
    assertThat(response.statusCode()).as(response.body()).isEqualTo(status);
  }
}
