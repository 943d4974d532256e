package dev.sluice.bench.load;

/**
 * CPU seconds spent during one measurement window: by the server under test, by the load generator,
 * and by everything else on the machine (noise, e.g. a test suite running beside).
 */
public record ResourceUsage(
    double serverCpuSeconds, double clientCpuSeconds, double otherCpuSeconds, long serverRssKib) {
  public static final ResourceUsage NONE =
      new ResourceUsage(Double.NaN, Double.NaN, Double.NaN, -1);
}
