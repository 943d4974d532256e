package dev.sluice.bench;

import dev.sluice.bench.load.RunResult;
import java.util.Locale;

/** The one line printed after each run, so a long suite shows where it is and how it goes. */
final class Progress {
  private Progress() {}

  /** {@code client}: the {@code --client} asked for; a run driven by another one says so. */
  static String line(RunResult r, String client) {
    String line =
        String.format(
            Locale.ROOT,
            "%-17s r%d %-12s %9.1f ops/s  p50 %7.2f ms  p99 %7.2f ms  p99.9 %7.2f ms  server %.2f cpu-ms/op  client %.3f cpu-ms/op  other-cpu %.2f cores",
            r.scenario(),
            r.round(),
            r.target(),
            r.throughput(),
            r.percentileMillis(50),
            r.percentileMillis(99),
            r.percentileMillis(99.9),
            r.serverCpuMillisPerOp(),
            r.operations() == 0
                ? Double.NaN
                : r.resources().clientCpuSeconds() * 1000 / r.operations(),
            r.resources().otherCpuSeconds() / r.seconds());
    if (!r.clientKind().equals(client)) {
      line += "  (" + r.clientKind() + " threads: no loop form)";
    }
    if (r.conflicts() > 0) {
      line += String.format(Locale.ROOT, "  conflicts %d", r.conflicts());
    }
    if (r.errors() > 0 || !r.errorSamples().isEmpty()) {
      line += "  ERRORS " + r.errors() + " " + r.errorSamples();
    }
    return line;
  }
}
