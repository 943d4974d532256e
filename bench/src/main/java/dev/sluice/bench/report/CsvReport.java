package dev.sluice.bench.report;

import dev.sluice.bench.load.RunResult;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * One row per measured run and one per (scenario, target) over all rounds ({@code round = all}),
 * for plotting and for comparing reports across commits.
 */
public final class CsvReport {
  private static final String HEADER =
      "scenario,target,round,clients,seconds,operations,ops_per_s,p50_ms,p90_ms,p99_ms,"
          + "p999_ms,max_ms,mean_ms,conflicts,errors,server_cpu_s,server_cpu_ms_per_op,client_cpu_s,other_cpu_s,"
          + "server_rss_mib";

  private CsvReport() {}

  public static void write(Path file, List<RunResult> runs, List<Aggregate> aggregates)
      throws IOException {
    List<String> lines = new ArrayList<>();
    lines.add(HEADER);
    for (RunResult r : runs) {
      lines.add(
          row(
              r.scenario(),
              r.target(),
              Integer.toString(r.round()),
              r.clients(),
              r.seconds(),
              r.operations(),
              r.throughput(),
              r.latencyMicros(),
              r.conflicts(),
              r.errors(),
              r.resources().serverCpuSeconds(),
              r.serverCpuMillisPerOp(),
              r.resources().clientCpuSeconds(),
              r.resources().otherCpuSeconds(),
              r.resources().serverRssKib() / 1024.0));
    }
    for (Aggregate a : aggregates) {
      int clients =
          runs.stream()
              .filter(r -> r.scenario().equals(a.scenario()))
              .findFirst()
              .map(RunResult::clients)
              .orElse(0);
      lines.add(
          row(
              a.scenario(),
              a.target(),
              "all",
              clients,
              a.seconds(),
              a.operations(),
              a.throughput(),
              a.latencyMicros(),
              a.conflicts(),
              a.errors(),
              a.serverCpuSeconds(),
              a.serverCpuMillisPerOp(),
              a.clientCpuSeconds(),
              a.otherCpuSeconds(),
              Double.NaN));
    }
    Files.write(file, lines);
  }

  private static String row(
      String scenario,
      String target,
      String round,
      int clients,
      double seconds,
      long ops,
      double throughput,
      org.HdrHistogram.Histogram h,
      long conflicts,
      long errors,
      double serverCpu,
      double serverCpuPerOp,
      double clientCpu,
      double otherCpu,
      double rssMib) {
    return String.format(
        Locale.ROOT,
        "%s,%s,%s,%d,%.1f,%d,%.1f,%s,%s,%s,%s,%s,%.3f,%d,%d,%.2f,%.3f,%.2f,%.2f,%s",
        scenario,
        target,
        round,
        clients,
        seconds,
        ops,
        throughput,
        ms(h, 50),
        ms(h, 90),
        ms(h, 99),
        ms(h, 99.9),
        h.getTotalCount() == 0 ? "" : String.format(Locale.ROOT, "%.3f", h.getMaxValue() / 1000.0),
        h.getTotalCount() == 0 ? Double.NaN : h.getMean() / 1000.0,
        conflicts,
        errors,
        serverCpu,
        serverCpuPerOp,
        clientCpu,
        otherCpu,
        Double.isNaN(rssMib) ? "" : String.format(Locale.ROOT, "%.0f", rssMib));
  }

  private static String ms(org.HdrHistogram.Histogram h, double p) {
    return h.getTotalCount() == 0
        ? ""
        : String.format(Locale.ROOT, "%.3f", h.getValueAtPercentile(p) / 1000.0);
  }
}
