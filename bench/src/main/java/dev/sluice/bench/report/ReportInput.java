package dev.sluice.bench.report;

import dev.sluice.bench.BenchOptions;
import dev.sluice.bench.ServerStats;
import dev.sluice.bench.load.RunResult;
import java.time.ZonedDateTime;
import java.util.List;
import java.util.Map;

/** Everything one report is written from. */
public record ReportInput(
    ZonedDateTime startedAt,
    double wallSeconds,
    BenchOptions options,
    MachineInfo machine,
    String loadAverageBefore,
    String loadAverageAfter,
    Map<String, String> scenarioDescriptions,
    List<RunResult> runs,
    List<ServerStats> servers,
    List<Profile> profiles) {}
