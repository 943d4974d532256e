package dev.sluice.bench.load;

import dev.sluice.bench.target.ProcStats;
import java.util.List;

/**
 * Waits, before a run, for a second in which processes other than the benchmark's own (its servers
 * and the load generator) use less than a threshold of CPU: on a shared 2-core machine a test suite
 * starting beside the benchmark otherwise halves a server's throughput unnoticed.
 */
public final class QuietWait {
  private final List<Long> ownPids;
  private final double maxSeconds;
  private final double thresholdCores;

  public QuietWait(List<Long> ownPids, double maxSeconds, double thresholdCores) {
    this.ownPids = ownPids;
    this.maxSeconds = maxSeconds;
    this.thresholdCores = thresholdCores;
  }

  /** Returns the seconds waited (0 when quiet at once, or when waiting is off). */
  public double await() throws InterruptedException {
    if (maxSeconds <= 0) {
      return 0;
    }
    long start = System.nanoTime();
    while ((System.nanoTime() - start) / 1e9 < maxSeconds) {
      double busy0 = ProcStats.systemBusySeconds();
      double own0 = ownCpu();
      Thread.sleep(1000);
      double other = (ProcStats.systemBusySeconds() - busy0) - (ownCpu() - own0);
      if (other < thresholdCores) {
        return (System.nanoTime() - start) / 1e9 - 1;
      }
    }
    return (System.nanoTime() - start) / 1e9;
  }

  private double ownCpu() {
    double sum = ProcStats.cpuSecondsOfThisProcess();
    for (long pid : ownPids) {
      sum += ProcStats.cpuSeconds(pid);
    }
    return sum;
  }
}
