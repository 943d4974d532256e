package dev.sluice.vending.azure;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.azure.storage.common.policy.RequestRetryOptions;
import dev.sluice.testing.AzuriteBed;
import dev.sluice.testing.NeedsTestBeds;
import dev.sluice.vending.CatalogIoTimeouts;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.apache.iceberg.io.FileIO;
import org.junit.jupiter.api.Test;

/**
 * The catalog's own ADLS I/O on a stalled Azurite (SIGSTOP: it takes connections and answers
 * nothing) gives up within its bound, where the storage SDK's defaults (four tries, no limit per
 * try) held a read for minutes; once Azurite runs again, the same I/O reads again. Measured with
 * tries of 1 s, 2 in all; the catalog's own bound is checked to be {@link CatalogIoTimeouts}'s.
 */
class AzureCatalogIoStallTest {
  @Test
  void theCatalogsBoundIsCatalogIoTimeouts() {
    RequestRetryOptions retry =
        CatalogAdlsIO.retryOptions(CatalogIoTimeouts.ATTEMPT, CatalogIoTimeouts.CALL);
    assertThat(retry.getTryTimeoutDuration()).isEqualTo(CatalogIoTimeouts.ATTEMPT);
    assertThat(retry.getMaxTries()).isEqualTo(2); // 2 x 5 s fit in 10 s
    assertThat(
            CatalogAdlsIO.retryOptions(Duration.ofSeconds(20), Duration.ofSeconds(10))
                .getMaxTries())
        .as("at least one try")
        .isEqualTo(1);
  }

  @Test
  @NeedsTestBeds
  void aStalledAccountFailsTheCatalogsReadWithinItsBound() throws Exception {
    AzuriteBed bed = AzuriteBed.bed().installAsDefault();
    String container = bed.newContainer("stall");
    String file = bed.abfss(container, "wh/ns/t/metadata/00000.json");
    try (FileIO io =
        new CatalogAdlsIO(
            bed.tokenCredential(),
            Map.of("adls.connection-string." + AzuriteBed.DFS_HOST, bed.blobEndpoint()),
            CatalogAdlsIO.retryOptions(Duration.ofSeconds(1), Duration.ofSeconds(2)))) {
      try (OutputStream out = io.newOutputFile(file).createOrOverwrite()) {
        out.write("{}".getBytes(UTF_8));
      }
      assertThat(read(io, file)).as("read before the stall").isEqualTo("{}");
      long azurite = azuritePid();
      signal("STOP", azurite);
      long start = System.nanoTime();
      try {
        assertThatThrownBy(() -> read(io, file)).as("a read while Azurite answers nothing");
      } finally {
        signal("CONT", azurite);
      }
      Duration took = Duration.ofNanos(System.nanoTime() - start);
      System.out.printf(
          "AZURE catalog read on a stalled account failed after %d ms%n", took.toMillis());
      assertThat(took).isBetween(Duration.ofSeconds(1), Duration.ofSeconds(5));
      assertThat(read(io, file)).as("read once Azurite runs again").isEqualTo("{}");
    }
  }

  private static String read(FileIO io, String file) throws IOException {
    try (InputStream in = io.newInputFile(file).newStream()) {
      return new String(in.readAllBytes(), UTF_8);
    }
  }

  /** The bed's Azurite, from the pid file scripts/azurite.sh writes in AZURITE_DIR. */
  private static long azuritePid() throws IOException {
    String dir = System.getenv("AZURITE_DIR");
    assertThat(dir).as("AZURITE_DIR (scripts/testbeds.sh sets it)").isNotBlank();
    return Long.parseLong(Files.readString(Path.of(dir, "pid")).trim());
  }

  private static void signal(String signal, long pid) throws Exception {
    Process kill = new ProcessBuilder("kill", "-" + signal, Long.toString(pid)).start();
    assertThat(kill.waitFor(10, TimeUnit.SECONDS)).isTrue();
    assertThat(kill.exitValue()).as("kill -" + signal + " " + pid).isZero();
  }
}
