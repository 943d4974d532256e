package dev.sluice.bench.report;

import dev.sluice.bench.load.RunResult;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.HdrHistogram.Histogram;

/**
 * All rounds of one scenario on one target taken together: operations over total measured time,
 * latency percentiles of the merged histograms, and the per-round throughputs to show spread.
 */
public record Aggregate(
    String scenario,
    String target,
    long operations,
    double seconds,
    long conflicts,
    long errors,
    Histogram latencyMicros,
    double serverCpuSeconds,
    double clientCpuSeconds,
    double otherCpuSeconds,
    List<Double> roundThroughputs,
    List<String> errorSamples) {

  public double throughput() {
    return operations / seconds;
  }

  public double percentileMillis(double p) {
    return latencyMicros.getTotalCount() == 0
        ? Double.NaN
        : latencyMicros.getValueAtPercentile(p) / 1000.0;
  }

  public double serverCpuMillisPerOp() {
    return operations == 0 ? Double.NaN : serverCpuSeconds * 1000 / operations;
  }

  /** (max − min) / mean of the rounds' throughputs. */
  public double roundSpread() {
    double min = Double.MAX_VALUE;
    double max = 0;
    double sum = 0;
    for (double t : roundThroughputs) {
      min = Math.min(min, t);
      max = Math.max(max, t);
      sum += t;
    }
    return roundThroughputs.size() < 2 || sum == 0
        ? 0
        : (max - min) / (sum / roundThroughputs.size());
  }

  /** Groups runs by (scenario, target), keeping the order in which they first appear. */
  public static List<Aggregate> of(List<RunResult> runs) {
    Map<String, List<RunResult>> groups = new LinkedHashMap<>();
    for (RunResult r : runs) {
      groups.computeIfAbsent(r.scenario() + "\u0000" + r.target(), k -> new ArrayList<>()).add(r);
    }
    List<Aggregate> list = new ArrayList<>();
    for (List<RunResult> group : groups.values()) {
      Histogram merged = new Histogram(group.get(0).latencyMicros().getHighestTrackableValue(), 3);
      long ops = 0;
      long conflicts = 0;
      long errors = 0;
      double seconds = 0;
      double server = 0;
      double client = 0;
      double other = 0;
      List<Double> rounds = new ArrayList<>();
      List<String> samples = new ArrayList<>();
      for (RunResult r : group) {
        merged.add(r.latencyMicros());
        ops += r.operations();
        conflicts += r.conflicts();
        errors += r.errors();
        seconds += r.seconds();
        server += r.resources().serverCpuSeconds();
        client += r.resources().clientCpuSeconds();
        other += r.resources().otherCpuSeconds();
        rounds.add(r.throughput());
        r.errorSamples().stream().filter(s -> !samples.contains(s)).limit(3).forEach(samples::add);
      }
      RunResult first = group.get(0);
      list.add(
          new Aggregate(
              first.scenario(),
              first.target(),
              ops,
              seconds,
              conflicts,
              errors,
              merged,
              server,
              client,
              other,
              rounds,
              samples));
    }
    return list;
  }
}
