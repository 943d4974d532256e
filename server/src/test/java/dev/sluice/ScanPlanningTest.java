package dev.sluice;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.sluice.testing.Admin;
import dev.sluice.testing.TestServer;
import java.net.http.HttpResponse;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import org.apache.iceberg.AppendFiles;
import org.apache.iceberg.DataFile;
import org.apache.iceberg.DataFiles;
import org.apache.iceberg.FileScanTask;
import org.apache.iceberg.Metrics;
import org.apache.iceberg.PartitionSpec;
import org.apache.iceberg.Scan;
import org.apache.iceberg.Schema;
import org.apache.iceberg.Table;
import org.apache.iceberg.TableScan;
import org.apache.iceberg.catalog.Namespace;
import org.apache.iceberg.catalog.TableIdentifier;
import org.apache.iceberg.expressions.Expressions;
import org.apache.iceberg.io.CloseableIterable;
import org.apache.iceberg.rest.RESTCatalog;
import org.apache.iceberg.types.Conversions;
import org.apache.iceberg.types.Types;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Server-side scan planning through Iceberg 1.11's own client in server planning mode: the same
 * tasks as client-side planning for filters, projections, time travel and incremental scans, paged
 * plan tasks, async plans, cancellation, a plan over budget, and what a plan id is to anyone but
 * its owner.
 */
class ScanPlanningTest {
  private static final Schema SCHEMA =
      new Schema(
          Types.NestedField.required(1, "id", Types.LongType.get()),
          Types.NestedField.required(2, "region", Types.StringType.get()),
          Types.NestedField.optional(3, "note", Types.StringType.get()));
  private static final PartitionSpec SPEC =
      PartitionSpec.builderFor(SCHEMA).identity("region").build();
  private static final List<String> REGIONS = List.of("emea", "apac", "amer");
  private static final TableIdentifier ORDERS = TableIdentifier.of("sales", "orders");
  private static final TableIdentifier BIG = TableIdentifier.of("sales", "big");

  private static TestServer server;
  private static Admin admin;
  private static String catalog;
  private static final List<Long> SNAPSHOTS = new ArrayList<>();

  @BeforeAll
  static void start() throws Exception {
    // Small pages and a small file budget, so paging and the budget show on small tables.
    server =
        TestServer.start(
            null,
            "server:\n  scanPlanning:\n    tasksPerPage: 4\n    maxFiles: 500\n    asyncAboveFiles: 100\n");
    admin = new Admin(server);
    catalog = server.createCatalog("plans");
    try (RESTCatalog client = client(Map.of())) {
      client.createNamespace(Namespace.of("sales"));
      Table orders = client.createTable(ORDERS, SCHEMA, SPEC);
      for (int round = 0; round < 3; round++) {
        AppendFiles append = orders.newFastAppend();
        for (int i = 0; i < 5; i++) {
          append.appendFile(
              dataFile(orders, REGIONS.get(i % 3), round * 100 + i * 10, "r" + round + i));
        }
        append.commit();
        SNAPSHOTS.add(orders.currentSnapshot().snapshotId());
      }
      Table big = client.createTable(BIG, SCHEMA, SPEC);
      for (int m = 0; m < 4; m++) {
        AppendFiles append = big.newFastAppend();
        for (int i = 0; i < 150; i++) {
          append.appendFile(dataFile(big, REGIONS.get(i % 3), i, "b" + m + "_" + i));
        }
        append.commit();
      }
    }
  }

  @AfterAll
  static void stop() throws Exception {
    server.close();
  }

  private static RESTCatalog client(Map<String, String> extra) {
    Map<String, String> props = new HashMap<>(server.clientProperties(catalog));
    props.putAll(extra);
    RESTCatalog client = new RESTCatalog();
    client.initialize("sluice", props);
    return client;
  }

  /** A data file of one region whose ids run from {@code low} to {@code low + 9}. */
  private static DataFile dataFile(Table table, String region, long low, String name) {
    Map<Integer, ByteBuffer> lower = Map.of(1, Conversions.toByteBuffer(Types.LongType.get(), low));
    Map<Integer, ByteBuffer> upper =
        Map.of(1, Conversions.toByteBuffer(Types.LongType.get(), low + 9));
    return DataFiles.builder(SPEC)
        .withPath(
            table.locationProvider().newDataLocation("region=" + region + "/" + name + ".parquet"))
        .withPartitionPath("region=" + region)
        .withFileSizeInBytes(100)
        .withFormat("parquet")
        .withMetrics(new Metrics(10L, null, Map.of(1, 10L), Map.of(1, 0L), null, lower, upper))
        .build();
  }

  /** What a scan plans, comparable across clients: each file with its residual. */
  private static Set<String> planned(Scan<?, FileScanTask, ?> scan) throws Exception {
    Set<String> out = new TreeSet<>();
    try (CloseableIterable<FileScanTask> tasks = scan.planFiles()) {
      for (FileScanTask task : tasks) {
        out.add(task.file().location() + " | " + task.residual() + " | " + task.deletes().size());
      }
    }
    return out;
  }

  @Test
  void serverPlansWhatTheClientWouldHavePlanned() throws Exception {
    try (RESTCatalog local = client(Map.of());
        RESTCatalog remote = client(Map.of("scan-planning-mode", "server"))) {
      Table mine = local.loadTable(ORDERS);
      Table theirs = remote.loadTable(ORDERS);
      assertThat(theirs.newScan().getClass().getSimpleName()).isEqualTo("RESTTableScan");
      List<java.util.function.Function<TableScan, TableScan>> scans =
          List.of(
              s -> s,
              s -> s.filter(Expressions.equal("region", "emea")),
              s -> s.filter(Expressions.greaterThanOrEqual("id", 205)),
              s ->
                  s.filter(
                      Expressions.and(
                          Expressions.equal("region", "apac"), Expressions.lessThan("id", 15))),
              s -> s.select("id"),
              s -> s.useSnapshot(SNAPSHOTS.get(0)),
              s -> s.useSnapshot(SNAPSHOTS.get(1)).filter(Expressions.equal("region", "amer")),
              s -> s.caseSensitive(false).filter(Expressions.equal("REGION", "emea")));
      for (var scan : scans) {
        Set<String> expected = planned(scan.apply(mine.newScan()));
        assertThat(planned(scan.apply(theirs.newScan()))).isEqualTo(expected).isNotEmpty();
      }
      // Incremental: the appends after the first snapshot, up to the third.
      assertThat(
              planned(
                  theirs
                      .newIncrementalAppendScan()
                      .fromSnapshotExclusive(SNAPSHOTS.get(0))
                      .toSnapshot(SNAPSHOTS.get(2))))
          .isEqualTo(
              planned(
                  mine.newIncrementalAppendScan()
                      .fromSnapshotExclusive(SNAPSHOTS.get(0))
                      .toSnapshot(SNAPSHOTS.get(2))));
    }
  }

  @Test
  void largePlansArePagedAndPolled() throws Exception {
    String path = tablePath(BIG) + "/plan";
    // All but EMEA: 400 files, within the budget of 500.
    HttpResponse<String> submitted =
        server.send(
            "POST",
            path,
            "{\"filter\": {\"type\": \"not-eq\", \"term\": \"region\", \"value\": \"emea\"}}");
    assertThat(submitted.statusCode()).as(submitted.body()).isEqualTo(200);
    JsonNode plan = TestServer.json(submitted.body());
    // More files than asyncAboveFiles (100): answered at once, planned meanwhile.
    assertThat(plan.get("status").asText()).isEqualTo("submitted");
    String planId = plan.get("plan-id").asText();
    JsonNode result = plan;
    for (int i = 0; i < 200 && !"completed".equals(result.get("status").asText()); i++) {
      Thread.sleep(10);
      HttpResponse<String> polled = server.send("GET", path + "/" + planId, null);
      assertThat(polled.statusCode()).as(polled.body()).isEqualTo(200);
      result = TestServer.json(polled.body());
    }
    assertThat(result.get("status").asText()).isEqualTo("completed");
    assertThat(result.get("file-scan-tasks")).hasSize(4);
    JsonNode planTasks = result.get("plan-tasks");
    assertThat(planTasks).hasSize(400 / 4 - 1);
    Set<String> files = new TreeSet<>();
    result
        .get("file-scan-tasks")
        .forEach(t -> files.add(t.get("data-file").get("file-path").asText()));
    for (JsonNode task : planTasks) {
      HttpResponse<String> page =
          server.send(
              "POST", tablePath(BIG) + "/tasks", "{\"plan-task\":\"" + task.asText() + "\"}");
      assertThat(page.statusCode()).as(page.body()).isEqualTo(200);
      TestServer.json(page.body())
          .get("file-scan-tasks")
          .forEach(t -> files.add(t.get("data-file").get("file-path").asText()));
    }
    assertThat(files).hasSize(400);

    // Cancelled: the plan and its tasks are gone.
    assertThat(server.send("DELETE", path + "/" + planId, null).statusCode()).isEqualTo(204);
    assertThat(server.send("GET", path + "/" + planId, null).statusCode()).isEqualTo(404);
    HttpResponse<String> gone =
        server.send(
            "POST",
            tablePath(BIG) + "/tasks",
            "{\"plan-task\":\"" + planTasks.get(0).asText() + "\"}");
    assertThat(gone.statusCode()).as(gone.body()).isEqualTo(404);
    assertThat(TestServer.json(gone.body()).get("error").get("type").asText())
        .isEqualTo("NoSuchPlanTaskException");
  }

  @Test
  void aPlanOverItsBudgetFailsCleanly() throws Exception {
    try (RESTCatalog remote = client(Map.of("scan-planning-mode", "server"))) {
      // 4 appends of 150 files, 600 in all: more than maxFiles (500).
      Table big = remote.loadTable(BIG);
      org.assertj.core.api.Assertions.assertThatThrownBy(() -> planned(big.newScan()))
          .hasMessageContaining("more than 500 files");
      // Narrowed by its filter, the same table plans.
      assertThat(planned(big.newScan().filter(Expressions.equal("region", "emea")))).hasSize(200);
    }
  }

  @Test
  void badScansAre400() throws Exception {
    String path = tablePath(ORDERS) + "/plan";
    for (String body :
        List.of(
            "{\"snapshot-id\": 42}",
            "{\"select\": [\"nope\"]}",
            "{\"filter\": {\"type\": \"eq\", \"term\": \"nope\", \"value\": 1}}",
            "{\"start-snapshot-id\": " + SNAPSHOTS.get(0) + "}",
            "{\"snapshot-id\": 1, \"start-snapshot-id\": 1, \"end-snapshot-id\": 2}",
            "{\"filter\": 7}",
            "[]")) {
      HttpResponse<String> response = server.send("POST", path, body);
      assertThat(response.statusCode()).as(body + " -> " + response.body()).isEqualTo(400);
      assertThat(TestServer.json(response.body()).get("error").get("code").asInt()).isEqualTo(400);
    }
  }

  @Test
  void aPlanIsOnlyItsOwnersOnItsOwnTable() throws Exception {
    HttpResponse<String> mine = server.send("POST", tablePath(ORDERS) + "/plan", "{}");
    String planId = TestServer.json(mine.body()).get("plan-id").asText();

    String[] reader = admin.principal("plan_reader", "plan_readers");
    admin.catalogRole(catalog, "plan_read", "plan_readers");
    admin.grant(
        catalog,
        "plan_read",
        Admin.grantJson("table", List.of("sales"), "orders", "TABLE_READ_DATA"));
    String token = server.token(reader[0], reader[1]);
    // Another principal who may read the table: the plan id names nothing for it.
    for (String[] call :
        List.of(
            new String[] {"GET", tablePath(ORDERS) + "/plan/" + planId},
            new String[] {"DELETE", tablePath(ORDERS) + "/plan/" + planId},
            new String[] {"GET", tablePath(ORDERS) + "/credentials?planId=" + planId})) {
      HttpResponse<String> response = server.sendAs(token, call[0], call[1], null);
      assertThat(response.statusCode()).as(String.join(" ", call) + response.body()).isEqualTo(404);
    }
    // The owner, on another table: nothing either.
    assertThat(server.send("GET", tablePath(BIG) + "/plan/" + planId, null).statusCode())
        .isEqualTo(404);
    // Without TABLE_READ_DATA on the table: refused before any plan is looked at.
    for (String[] call :
        List.of(
            new String[] {"POST", tablePath(BIG) + "/plan", "{}"},
            new String[] {"GET", tablePath(BIG) + "/plan/" + planId, null},
            new String[] {"DELETE", tablePath(BIG) + "/plan/" + planId, null},
            new String[] {"POST", tablePath(BIG) + "/tasks", "{\"plan-task\": \"x/1\"}"},
            new String[] {"GET", tablePath(BIG) + "/credentials?planId=" + planId, null})) {
      HttpResponse<String> refused = server.sendAs(token, call[0], call[1], call[2]);
      assertThat(refused.statusCode()).as(call[0] + " " + call[1] + refused.body()).isEqualTo(403);
    }
    // The owner's own plan is still there, and it is completed or on its way.
    HttpResponse<String> own = server.send("GET", tablePath(ORDERS) + "/plan/" + planId, null);
    assertThat(own.statusCode()).as(own.body()).isEqualTo(200);
  }

  @Test
  void aRestrictionSetAfterAPlanRefusesThatPlan() throws Exception {
    String[] later = admin.principal("later_reader", "later_readers");
    admin.catalogRole(catalog, "later_read", "later_readers");
    admin.grant(
        catalog,
        "later_read",
        Admin.grantJson("table", List.of("sales"), "orders", "TABLE_READ_DATA"));
    String token = server.token(later[0], later[1]);
    HttpResponse<String> before = server.sendAs(token, "POST", tablePath(ORDERS) + "/plan", "{}");
    JsonNode plan = TestServer.json(before.body());
    // 15 files in pages of 4: one inline, three plan tasks.
    assertThat(plan.get("file-scan-tasks")).hasSize(4);
    assertThat(plan.get("plan-tasks")).hasSize(3);
    String planId = plan.get("plan-id").asText();

    HttpResponse<String> restricted =
        server.send(
            "PUT",
            "/api/management/v1/catalogs/"
                + catalog
                + "/namespaces/sales/tables/orders/read-restrictions/later_readers",
            "{\"rowFilter\": {\"type\": \"eq\", \"term\": \"region\", \"value\": \"emea\"}}");
    assertThat(restricted.statusCode()).as(restricted.body()).isBetween(200, 204);
    // The plan made before serves nothing more; a new one holds only EMEA's files.
    HttpResponse<String> old =
        server.sendAs(token, "GET", tablePath(ORDERS) + "/plan/" + planId, null);
    assertThat(old.statusCode()).as(old.body()).isEqualTo(403);
    JsonNode after =
        TestServer.json(server.sendAs(token, "POST", tablePath(ORDERS) + "/plan", "{}").body());
    // EMEA's 6 files: one page inline, one plan task.
    assertThat(after.get("file-scan-tasks")).hasSize(4);
    assertThat(after.get("plan-tasks")).hasSize(1);
    assertThat(after.get("file-scan-tasks").toString())
        .contains("region=emea")
        .doesNotContain("region=apac")
        .doesNotContain("region=amer");
    // Cancelling the old one still works.
    assertThat(
            server
                .sendAs(token, "DELETE", tablePath(ORDERS) + "/plan/" + planId, null)
                .statusCode())
        .isEqualTo(204);
  }

  private static String tablePath(TableIdentifier table) {
    return "/api/catalog/v1/"
        + catalog
        + "/namespaces/"
        + table.namespace()
        + "/tables/"
        + table.name();
  }
}
