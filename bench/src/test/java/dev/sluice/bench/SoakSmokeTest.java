package dev.sluice.bench;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.CleanupMode;
import org.junit.jupiter.api.io.TempDir;

/**
 * The soak ({@code --soak}) end to end and short, on the embedded default: 4 s in two intervals,
 * then the report read back. What it proves: every kind of work ran without an error in every
 * interval, the writers read their appends back and lost none, and each interval has the server's
 * RSS, threads and old generation after a full GC (asked of the server's JVM with jcmd), so a
 * ten-minute soak has the figures its trend needs. The figures are not judged.
 */
@Tag("bed") // the bed lane (failsafe, after package): it starts the server from server/target
class SoakSmokeTest {
  private static final List<String> KINDS = List.of("load", "commit", "create+drop", "token");

  @Test
  @Timeout(value = 2, unit = TimeUnit.MINUTES)
  void everyKindRanInEveryIntervalAndTheServerWasSampled(
      @TempDir(cleanup = CleanupMode.ON_SUCCESS) Path dir) throws Exception {
    String repoRoot = System.getProperty("sluice.repo.root");
    assertThat(repoRoot).as("system property sluice.repo.root (bench/pom.xml sets it)").isNotNull();
    BenchMain.run(
        BenchOptions.parse(
            new String[] {
              "--repo-root", repoRoot,
              "--results-dir", dir.resolve("results").toString(),
              "--work-dir", dir.resolve("work").toString(),
              "--name", "soak",
              "--targets", "sluice-rbac",
              "--soak", "4",
              "--soak-interval", "2",
              "--soak-clients", "4",
              "--tables", "4",
              "--large-snapshots", "0",
              "--startup-settle", "0"
            }));

    String report = Files.readString(dir.resolve("results/soak.md"));
    assertThat(report)
        .contains("## sluice-rbac")
        .containsPattern("read back: [1-9][0-9,]*; lost: 0\\.");
    assertThat(report).contains("errors: 0.");

    List<String[]> rows =
        Files.readAllLines(dir.resolve("results/soak.csv")).stream()
            .skip(1)
            .map(line -> line.split(","))
            .toList();
    assertThat(rows).as("2 intervals × 4 kinds").hasSize(8);
    for (String[] row : rows) {
      String what = String.join(",", row);
      assertThat(row[0]).as(what).isEqualTo("sluice-rbac");
      assertThat(row[3]).as(what).isIn(KINDS);
      assertThat(Long.parseLong(row[4])).as("operations: " + what).isPositive();
      assertThat(Long.parseLong(row[5])).as("errors: " + what).isZero();
      assertThat(Double.parseDouble(row[10])).as("RSS MiB: " + what).isPositive();
      assertThat(Integer.parseInt(row[11])).as("threads: " + what).isPositive();
      assertThat(Double.parseDouble(row[12])).as("old gen after GC, MiB: " + what).isPositive();
    }
  }
}
