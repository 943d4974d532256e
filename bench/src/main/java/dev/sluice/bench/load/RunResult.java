package dev.sluice.bench.load;

import java.util.List;
import org.HdrHistogram.Histogram;

/**
 * One measured run of one scenario on one target. Latencies are in microseconds, of operations that
 * started inside the window; the load is closed-loop (each client sends its next request when the
 * previous one is answered), so latency is what a client waits, at the throughput the server
 * sustains with {@code clients} outstanding requests. {@code clientKind} is what drove them: {@code
 * raw} or {@code jdk} threads, or the event {@code loop}.
 */
public record RunResult(
    String scenario,
    String target,
    int round,
    int clients,
    String clientKind,
    double seconds,
    long operations,
    long conflicts,
    long errors,
    List<String> errorSamples,
    Histogram latencyMicros,
    ResourceUsage resources,
    long windowStartMillis,
    long windowEndMillis) {

  public double throughput() {
    return operations / seconds;
  }

  public double percentileMillis(double percentile) {
    return latencyMicros.getTotalCount() == 0
        ? Double.NaN
        : latencyMicros.getValueAtPercentile(percentile) / 1000.0;
  }

  /**
   * Server CPU milliseconds per completed operation: the cost of an operation, whatever the
   * concurrency.
   */
  public double serverCpuMillisPerOp() {
    return operations == 0 ? Double.NaN : resources.serverCpuSeconds() * 1000.0 / operations;
  }
}
