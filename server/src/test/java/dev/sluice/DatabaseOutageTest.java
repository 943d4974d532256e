package dev.sluice;

import static org.assertj.core.api.Assertions.assertThat;

import dev.sluice.testing.TestServer;
import java.io.IOException;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
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
 * PostgreSQL goes away and comes back under a running server: requests fail fast with a clear 503
 * while it is down, readiness reflects it, the server recovers by itself, nothing is lost. Uses its
 * own PostgreSQL (from scripts/postgres-testbed.sh) so stopping it disturbs no other test.
 */
class DatabaseOutageTest {
  private static final Schema SCHEMA =
      new Schema(Types.NestedField.required(1, "id", Types.LongType.get()));
  private static String pgBin;
  private static String pgDir;
  private static String pgPort;
  private static TestServer server;

  private static String bash(String script) throws IOException, InterruptedException {
    Process p =
        new ProcessBuilder("bash", "-c", script)
            .directory(Path.of("..").toFile())
            .redirectErrorStream(true)
            .start();
    String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    assertThat(p.waitFor()).as(out).isZero();
    return out.trim();
  }

  private static void pgCtl(String action) throws Exception {
    String asPostgres = "$( [ \"$(id -u)\" -eq 0 ] && echo 'runuser -u postgres --' )";
    bash(
        asPostgres
            + " "
            + pgBin
            + "/pg_ctl -D "
            + pgDir
            + "/data -l "
            + pgDir
            + "/server.log -w -t 60 "
            + action
            + (action.equals("start")
                ? " -o \"-p " + pgPort + " -k " + pgDir + " -c listen_addresses=127.0.0.1\""
                : "")
            + " >/dev/null");
  }

  @BeforeAll
  static void start() throws Exception {
    String[] env =
        bash("source scripts/postgres-testbed.sh && pg_testbed_start >/dev/null 2>&1 && echo $PG_BIN $PG_DIR $PG_PORT")
            .split("\\s+");
    pgBin = env[env.length - 3];
    pgDir = env[env.length - 2];
    pgPort = env[env.length - 1];
    server = TestServer.start("jdbc:postgresql://127.0.0.1:" + pgPort + "/postgres?user=postgres");
  }

  @AfterAll
  static void stop() throws Exception {
    if (server != null) {
      server.close();
    }
    if (pgDir != null) {
      pgCtl("stop -m immediate");
      bash("rm -rf " + pgDir);
    }
  }

  private static void append(Table table, String name) {
    table
        .newAppend()
        .appendFile(
            DataFiles.builder(PartitionSpec.unpartitioned())
                .withPath(table.location() + "/data/" + name + ".parquet")
                .withFileSizeInBytes(10)
                .withRecordCount(1)
                .build())
        .commit();
  }

  @Test
  void requestsFailFastWhileDownAndRecoverAfter() throws Exception {
    Path warehouse = server.dataDir().resolve("outage");
    String catalog =
        server.createCatalog("outage", List.of(warehouse.toUri().toString()), warehouse);
    Map<String, String> props = new HashMap<>(server.clientProperties(catalog));
    try (RESTCatalog client = new RESTCatalog()) {
      client.initialize("outage", props);
      client.createNamespace(Namespace.of("ns"));
      Table table = client.createTable(TableIdentifier.of("ns", "t"), SCHEMA);
      for (int i = 0; i < 5; i++) {
        append(table, "before-" + i);
      }

      // A writer keeps appending through the outage; every append it saw acknowledged must survive.
      java.util.concurrent.atomic.AtomicBoolean running =
          new java.util.concurrent.atomic.AtomicBoolean(true);
      List<String> acked = java.util.Collections.synchronizedList(new java.util.ArrayList<>());
      List<long[]> attempts = java.util.Collections.synchronizedList(new java.util.ArrayList<>());
      Thread writer =
          new Thread(
              () -> {
                try (RESTCatalog writerClient = new RESTCatalog()) {
                  writerClient.initialize("writer", props);
                  for (int i = 0; running.get(); i++) {
                    String name = "during-" + i;
                    long began = System.nanoTime();
                    try {
                      Table t = writerClient.loadTable(TableIdentifier.of("ns", "t"));
                      append(t, name);
                      acked.add(name);
                      attempts.add(new long[] {began, System.nanoTime()});
                    } catch (RuntimeException e) {
                      attempts.add(new long[] {began, System.nanoTime()});
                      try {
                        Thread.sleep(100);
                      } catch (InterruptedException ie) {
                        return;
                      }
                    }
                  }
                } catch (Exception e) {
                  throw new IllegalStateException(e);
                }
              });
      writer.start();
      Thread.sleep(500);
      pgCtl("stop -m fast");
      long downSince = System.nanoTime();
      for (String path :
          List.of(
              "/api/catalog/v1/" + catalog + "/namespaces",
              "/api/catalog/v1/" + catalog + "/namespaces/ns/tables/t")) {
        long started = System.nanoTime();
        HttpResponse<String> down = server.send("GET", path, null);
        long tookMs = (System.nanoTime() - started) / 1_000_000;
        assertThat(down.statusCode()).as(down.body()).isEqualTo(503);
        assertThat(TestServer.json(down.body()).get("error").get("type").asText())
            .isEqualTo("ServiceUnavailableException");
        assertThat(down.body()).doesNotContain("jdbc:").doesNotContain("\tat ");
        assertThat(tookMs).as("fails fast, does not hang").isLessThan(10_000);
      }
      assertThat(server.send("GET", "/readyz", null).statusCode()).isEqualTo(503);
      assertThat(server.send("GET", "/healthz", null).statusCode()).isEqualTo(200);

      long downUntil = System.nanoTime();
      pgCtl("start");
      long deadline = System.currentTimeMillis() + 30_000;
      while (server.send("GET", "/readyz", null).statusCode() != 200
          && System.currentTimeMillis() < deadline) {
        Thread.sleep(200);
      }
      assertThat(server.send("GET", "/readyz", null).statusCode()).isEqualTo(200);
      Thread.sleep(1000);
      running.set(false);
      writer.join(30_000);
      Table again = client.loadTable(TableIdentifier.of("ns", "t"));
      for (int i = 0; i < 5; i++) {
        append(again, "after-" + i);
      }
      Table last = client.loadTable(TableIdentifier.of("ns", "t"));
      List<String> present = new java.util.ArrayList<>();
      for (var snapshot : last.snapshots()) {
        snapshot
            .addedDataFiles(last.io())
            .forEach(
                f ->
                    present.add(
                        f.location()
                            .substring(f.location().lastIndexOf('/') + 1)
                            .replace(".parquet", "")));
      }
      assertThat(present).as("no append applied twice").doesNotHaveDuplicates();
      assertThat(acked)
          .as("nothing acknowledged was lost across the outage")
          .allMatch(present::contains);
      assertThat(present).contains("before-0", "before-4", "after-0", "after-4");
      assertThat(attempts)
          .as("the writer was appending while the database was down")
          .anyMatch(a -> a[0] <= downUntil && a[1] >= downSince);
      assertThat(acked).as("and wrote before or after it").isNotEmpty();
    }
  }
}
