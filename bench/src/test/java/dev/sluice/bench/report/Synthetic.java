package dev.sluice.bench.report;

import dev.sluice.bench.BenchOptions;
import dev.sluice.bench.ServerStats;
import dev.sluice.bench.load.ResourceUsage;
import dev.sluice.bench.load.RunResult;
import java.time.ZonedDateTime;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.HdrHistogram.Histogram;

/**
 * Made-up runs for the report's unit tests: every operation of a run takes the same time, so each
 * percentile is that time exactly (values below 2,048 µs are exact at 3 significant digits).
 */
final class Synthetic {
  private Synthetic() {}

  /** One second with {@code operations} operations of {@code micros} each, round 1. */
  static RunResult run(String scenario, String target, long operations, long micros) {
    Histogram latency = new Histogram(120_000_000L, 3);
    if (operations > 0) {
      latency.recordValueWithCount(micros, operations);
    }
    return new RunResult(
        scenario,
        target,
        1,
        16,
        "loop",
        1.0,
        operations,
        0,
        0,
        List.of(),
        latency,
        new ResourceUsage(0.5, 0.1, 0.0, 200 * 1024),
        0,
        1000);
  }

  /** Options as parsed from {@code args} (the repository root is irrelevant here). */
  static BenchOptions options(String... args) {
    List<String> all = new ArrayList<>(List.of("--repo-root", "/nonexistent"));
    all.addAll(List.of(args));
    return BenchOptions.parse(all.toArray(String[]::new));
  }

  static ReportInput input(BenchOptions options, List<RunResult> runs, List<ServerStats> servers) {
    return new ReportInput(
        ZonedDateTime.now(),
        1,
        options,
        new MachineInfo(2, "cpu", 4096, "java", "os", "abc"),
        "0 0 0",
        "0 0 0",
        Map.of(),
        runs,
        servers,
        List.of());
  }

  /** A Sluice server that started in {@code startupSeconds} and idled at {@code idleMib}. */
  static ServerStats server(String name, double startupSeconds, long idleMib) {
    return new ServerStats(name, 1, startupSeconds, idleMib * 1024, 0, 0, 0);
  }
}
