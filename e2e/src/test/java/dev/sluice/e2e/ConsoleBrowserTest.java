package dev.sluice.e2e;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.fail;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.apache.iceberg.DataFile;
import org.apache.iceberg.DataFiles;
import org.apache.iceberg.PartitionSpec;
import org.apache.iceberg.Schema;
import org.apache.iceberg.Table;
import org.apache.iceberg.catalog.Namespace;
import org.apache.iceberg.catalog.TableIdentifier;
import org.apache.iceberg.rest.RESTCatalog;
import org.apache.iceberg.types.Types;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The web console in Debian's Chromium, driven by {@code e2e/js/console.mjs} (playwright-core,
 * pinned by {@code e2e/js/package-lock.json}, with the system browser) against a Sluice process
 * whose storage is the Ceph RGW test bed. The script's steps sign in, create a catalog (a
 * validation error, then success with the self-check), browse a seeded table and view, manage
 * principals, roles and grants, and check what a principal then sees.
 *
 * <p>Needs {@code node}, {@code /usr/bin/chromium} ({@code scripts/chromium.sh install}), {@code
 * npm ci --prefix e2e/js} and the RGW bed; fails, not skips, without them. Screenshots land in
 * {@code e2e/target/console-screenshots} ({@code docs/console/} holds the committed ones).
 */
class ConsoleBrowserTest {
  private static final long NODE_TIMEOUT_SECONDS = 420;

  private static Map<String, String> rgw;
  private static RgwTestBucket bucket;
  private static SluiceServerProcess server;

  @BeforeAll
  static void start() throws Exception {
    rgw = RgwTestBucket.environment("ConsoleBrowserTest");
    bucket = RgwTestBucket.create(rgw, "sluice-e2e-console");
    server = SluiceServerProcess.start("console", RgwTestBucket.SERVER_CONFIG, rgw);
    seed();
  }

  @AfterAll
  static void stop() {
    if (server != null) {
      server.close();
    }
    if (bucket != null) {
      bucket.close();
    }
  }

  /**
   * What the browse pages show, made by Iceberg's own client in the local-files catalog: nested
   * namespaces, a partitioned table with two appends, a branch and a tag, and a view.
   */
  private static void seed() throws Exception {
    try (RESTCatalog catalog = new RESTCatalog()) {
      catalog.initialize(
          "seed",
          Map.of(
              "uri",
              server.catalogUri(),
              "warehouse",
              SluiceServerProcess.WAREHOUSE,
              "credential",
              server.credential(),
              "scope",
              "PRINCIPAL_ROLE:ALL"));
      Namespace sales = Namespace.of("sales");
      // Iceberg asks these maps for a null key, which Map.of refuses.
      catalog.createNamespace(sales, new HashMap<>(Map.of("owner", "sales-eng")));
      catalog.createNamespace(Namespace.of("sales", "eu"));
      Schema schema =
          new Schema(
              Types.NestedField.required(1, "id", Types.LongType.get()),
              Types.NestedField.optional(2, "customer", Types.StringType.get(), "who ordered"),
              Types.NestedField.optional(3, "amount", Types.DecimalType.of(12, 2)),
              Types.NestedField.optional(4, "ordered_at", Types.TimestampType.withZone()),
              Types.NestedField.optional(
                  5,
                  "lines",
                  Types.ListType.ofOptional(
                      6,
                      Types.StructType.of(
                          Types.NestedField.optional(7, "sku", Types.StringType.get()),
                          Types.NestedField.optional(8, "qty", Types.IntegerType.get())))));
      PartitionSpec spec = PartitionSpec.builderFor(schema).day("ordered_at").build();
      Table orders =
          catalog.createTable(
              TableIdentifier.of(sales, "orders"),
              schema,
              spec,
              new HashMap<>(Map.of("write.format.default", "parquet")));
      for (int i = 0; i < 2; i++) {
        orders.newAppend().appendFile(dataFile(orders, i)).commit();
      }
      long first = orders.history().get(0).snapshotId();
      orders.manageSnapshots().createTag("v1", first).commit();
      orders.manageSnapshots().createBranch("audit", first).commit();
      catalog
          .buildView(TableIdentifier.of(sales, "big_orders"))
          .withSchema(schema.select("id", "amount"))
          .withDefaultNamespace(sales)
          .withQuery("spark", "SELECT id, amount FROM orders WHERE amount > 1000")
          .create();
    }
  }

  private static DataFile dataFile(Table table, int i) {
    return DataFiles.builder(table.spec())
        .withPath(
            table.location() + "/data/ordered_at_day=2026-11-0" + (i + 1) + "/f" + i + ".parquet")
        .withPartitionPath("ordered_at_day=2026-11-0" + (i + 1))
        .withFileSizeInBytes(1024L * (i + 1))
        .withRecordCount(100L * (i + 1))
        .build();
  }

  @Test
  void consoleInChromium() throws Exception {
    Path jsDir = SluiceServerProcess.repoRoot().resolve("e2e/js");
    Path script = jsDir.resolve("console.mjs");
    if (!Files.isRegularFile(jsDir.resolve("node_modules/playwright-core/package.json"))) {
      fail("%s lacks playwright-core: run `npm ci --prefix e2e/js` first.", jsDir);
    }
    if (!Files.isExecutable(Path.of("/usr/bin/chromium"))) {
      fail("/usr/bin/chromium is missing: run `scripts/chromium.sh install` first.");
    }
    Path shots = SluiceServerProcess.repoRoot().resolve("e2e/target/console-screenshots");
    Map<String, String> env = new HashMap<>(rgw);
    env.put("SLUICE_URL", server.rootUrl());
    env.put("SLUICE_ROOT_ID", server.clientId());
    env.put("SLUICE_ROOT_SECRET", server.clientSecret());
    env.put("SLUICE_SCREENSHOTS", shots.toString());
    env.put("SLUICE_S3_BUCKET", bucket.name());
    env.put("NO_COLOR", "1");

    ProcessBuilder builder =
        new ProcessBuilder(List.of("node", script.toString()))
            .directory(jsDir.toFile())
            .redirectErrorStream(true);
    builder.environment().putAll(env);
    Process node = builder.start();
    CompletableFuture<String> output =
        CompletableFuture.supplyAsync(() -> readAll(node.getInputStream()));
    if (!node.waitFor(NODE_TIMEOUT_SECONDS, TimeUnit.SECONDS)) {
      node.destroyForcibly();
      fail(
          "node %s did not finish within %d s; output so far:%n%s",
          script,
          NODE_TIMEOUT_SECONDS,
          output.completeOnTimeout("(unavailable)", 5, TimeUnit.SECONDS).get());
    }
    String out = output.get(10, TimeUnit.SECONDS);
    System.out.println("--- node " + jsDir.relativize(script) + " ---");
    System.out.print(out);
    assertThat(node.exitValue())
        .as(
            "exit code of node %s (screenshots in %s); its output:%n%s%nServer log tail:%n%s",
            script, shots, out, server.logTail(40))
        .isZero();
    assertThat(out).contains("console: all ").doesNotContain("FAILED");
  }

  private static String readAll(InputStream in) {
    try (in) {
      return new String(in.readAllBytes(), StandardCharsets.UTF_8);
    } catch (IOException e) {
      return "(could not read node's output: " + e + ")";
    }
  }
}
