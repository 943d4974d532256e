package dev.sluice;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.sluice.testing.Admin;
import dev.sluice.testing.FreezesTestBed;
import dev.sluice.testing.NeedsTestBeds;
import dev.sluice.testing.RgwVendingBed;
import dev.sluice.testing.TestServer;
import java.io.IOException;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The real Ceph RGW, whose STS vends the credentials, frozen (SIGSTOP) for a few seconds mid-test
 * (issue 33): a table whose credential was vended before keeps loading with it while it stays valid
 * (its fresh cache entry has expired); a table never vended gets 503 naming the catalog within the
 * provider timeout, not a 500 and not after the SDK's retries; once RGW runs again, vending works
 * again. With STS down before, such loads took 8.6-9.8 s.
 */
@FreezesTestBed
@NeedsTestBeds
class ProviderStallTest {
  private static final String CATALOG = "stall";
  private static RgwVendingBed bed;
  private static String reader;

  @BeforeAll
  static void start() throws Exception {
    // A fresh cache entry lives one second; the credentials 900 s.
    bed =
        RgwVendingBed.start(
            "stall", "  vendingCache: { ttlCapSeconds: 1, maxEntries: 1000 }\n", null);
    bed.createCatalog(CATALOG, "wh", "wh", Map.of());
    bed.createNamespace(CATALOG, "ns");
    bed.createTable(CATALOG, "ns", "warm");
    bed.createTable(CATALOG, "ns", "cold");
    // A reader who has had no credential for either table: its first one needs STS.
    Admin admin = bed.admin();
    String[] credentials = admin.principal("stall_reader", "stall_readers");
    admin.catalogRole(CATALOG, "readers", "stall_readers");
    admin.grant(
        CATALOG, "readers", Admin.grantJson("namespace", List.of("ns"), null, "TABLE_READ_DATA"));
    reader = bed.server().token(credentials[0], credentials[1]);
  }

  @AfterAll
  static void stop() throws Exception {
    bed.close();
  }

  @Test
  void stsFrozen_stillValidCredentialServed_unvendedTable503Bounded_recovers() throws Exception {
    String root = bed.server().rootToken();
    JsonNode warm = bed.load(root, CATALOG, "ns", "warm", true);
    String warmKey = firstAccessKey(warm);
    bed.load(root, CATALOG, "ns", "cold", false); // its metadata is read (and cached)
    Thread.sleep(1_200); // the warm entry's fresh second is over

    long rgw = radosgwPid();
    signal("STOP", rgw);
    long coldMs;
    long warmMs;
    HttpResponse<String> cold;
    JsonNode warmAgain;
    try {
      long t0 = System.nanoTime();
      warmAgain = bed.load(root, CATALOG, "ns", "warm", true);
      warmMs = (System.nanoTime() - t0) / 1_000_000;
      long t1 = System.nanoTime();
      cold =
          bed.send(
              reader,
              "GET",
              "/api/catalog/v1/" + CATALOG + "/namespaces/ns/tables/cold",
              null,
              true);
      coldMs = (System.nanoTime() - t1) / 1_000_000;
    } finally {
      signal("CONT", rgw);
    }
    System.out.printf(
        "PROVIDER stall warm_stale_ms=%d cold_status=%d cold_ms=%d%n",
        warmMs, cold.statusCode(), coldMs);
    assertThat(firstAccessKey(warmAgain))
        .as("the credential vended before, served while STS is frozen")
        .isEqualTo(warmKey);
    assertThat(warmMs).as("ms: the provider's timeout at most").isLessThan(8_000);
    assertThat(cold.statusCode()).as(cold.body()).isEqualTo(503);
    assertThat(TestServer.json(cold.body()).path("error").path("message").asText())
        .contains(CATALOG);
    assertThat(cold.headers().firstValue("Retry-After")).isPresent();
    assertThat(coldMs).as("ms to the 503").isLessThan(8_000);

    JsonNode after = bed.load(reader, CATALOG, "ns", "cold", true);
    assertThat(after.path("storage-credentials")).as("vending again").isNotEmpty();
    String metrics = bed.server().sendAs(null, "GET", "/metrics", null).body();
    assertThat(metrics)
        .containsPattern("sluice_vending_stale_served_total\\{backend=\"s3\"[^}]*} [1-9]");
  }

  private static String firstAccessKey(JsonNode load) {
    JsonNode creds = load.path("storage-credentials");
    assertThat(creds).as(load.toString()).isNotEmpty();
    return creds.get(0).path("config").path("s3.access-key-id").asText();
  }

  /** The bed's radosgw, from its pid file beside ceph.conf (scripts/ceph-rgw.sh). */
  private static long radosgwPid() throws IOException {
    String conf = System.getenv("SLUICE_TEST_RGW_CEPH_CONF");
    assertThat(conf).as("SLUICE_TEST_RGW_CEPH_CONF (scripts/testbeds.sh sets it)").isNotBlank();
    for (String line : Files.readAllLines(Path.of(conf).resolveSibling("pids"))) {
      String[] parts = line.trim().split("\\s+");
      if (parts.length == 2 && parts[0].startsWith("rgw.")) {
        return Long.parseLong(parts[1]);
      }
    }
    throw new AssertionError("no radosgw in " + Path.of(conf).resolveSibling("pids"));
  }

  private static void signal(String signal, long pid) throws Exception {
    Process kill = new ProcessBuilder("kill", "-" + signal, Long.toString(pid)).start();
    assertThat(kill.waitFor(10, TimeUnit.SECONDS)).isTrue();
    assertThat(kill.exitValue()).as("kill -" + signal + " " + pid).isZero();
  }
}
