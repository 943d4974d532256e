package dev.sluice.bench.soak;

import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * A whole soak on one target: its samples, which clients did what, and the writers' verdict
 * (appends acknowledged and read back, and how many of those the tables did not hold).
 */
public record SoakResult(
    String target,
    double intervalSeconds,
    Map<SoakKind, Integer> clients,
    List<SoakSample> samples,
    long verifiedAppends,
    long lostAppends,
    Set<String> errorSamples,
    List<ClassGrowth> liveSetGrowth) {

  /** A class's live bytes at the end of the first interval and at the end of the soak. */
  public record ClassGrowth(String className, long firstBytes, long lastBytes) {
    long growth() {
      return lastBytes - firstBytes;
    }
  }

  public long errors() {
    return samples.stream().mapToLong(SoakSample::totalErrors).sum();
  }

  public long operations() {
    return samples.stream().mapToLong(SoakSample::totalOperations).sum();
  }
}
