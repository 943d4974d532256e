package dev.sluice.vending.azure;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.azure.storage.common.policy.RequestRetryOptions;
import dev.sluice.testing.AzuriteBed;
import dev.sluice.testing.FreezesTestBed;
import dev.sluice.testing.NeedsTestBeds;
import dev.sluice.vending.StorageTimeouts;
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
 * tries of 1 s, 2 in all; the bound is checked to follow {@link StorageTimeouts.CatalogIo} ({@code
 * storage.catalogIoTimeouts}).
 */
@FreezesTestBed
class AzureCatalogIoStallTest {
  @Test
  void theCatalogsBoundFollowsItsCatalogIoTimeouts() {
    RequestRetryOptions retry = CatalogAdlsIO.retryOptions(StorageTimeouts.CatalogIo.DEFAULT);
    assertThat(retry.getTryTimeoutDuration()).isEqualTo(Duration.ofSeconds(5));
    assertThat(retry.getMaxTries()).isEqualTo(2); // 2 x 5 s fit in 10 s
    RequestRetryOptions configured =
        CatalogAdlsIO.retryOptions(
            new StorageTimeouts.CatalogIo(Duration.ofMillis(1_500), Duration.ofSeconds(6), 3));
    assertThat(configured.getTryTimeoutDuration()).isEqualTo(Duration.ofMillis(1_500));
    assertThat(configured.getMaxTries()).as("4 fit, maxAttempts 3").isEqualTo(3);
    assertThat(
            CatalogAdlsIO.retryOptions(
                    new StorageTimeouts.CatalogIo(Duration.ofSeconds(1), Duration.ofSeconds(6), 10))
                .getMaxTries())
        .as("as many as fit in the call")
        .isEqualTo(6);
    assertThat(
            CatalogAdlsIO.retryOptions(
                    new StorageTimeouts.CatalogIo(
                        Duration.ofSeconds(20), Duration.ofSeconds(25), 3))
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
            CatalogAdlsIO.retryOptions(
                new StorageTimeouts.CatalogIo(Duration.ofSeconds(1), Duration.ofSeconds(2), 3)))) {
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
