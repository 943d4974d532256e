package dev.sluice.bench.load;

import dev.sluice.bench.target.ProcStats;

/** Reads /proc at the start and end of a measurement window; {@code serverPid} < 0: not known. */
public final class ResourceProbe {
  private final long serverPid;
  private double server0;
  private double client0;
  private double system0;

  public ResourceProbe(long serverPid) {
    this.serverPid = serverPid;
  }

  public void begin() {
    server0 = serverPid < 0 ? Double.NaN : ProcStats.cpuSeconds(serverPid);
    client0 = ProcStats.cpuSecondsOfThisProcess();
    system0 = ProcStats.systemBusySeconds();
  }

  public ResourceUsage end() {
    double server = serverPid < 0 ? Double.NaN : ProcStats.cpuSeconds(serverPid) - server0;
    double client = ProcStats.cpuSecondsOfThisProcess() - client0;
    double system = ProcStats.systemBusySeconds() - system0;
    double other = Double.isNaN(server) ? Double.NaN : Math.max(0, system - server - client);
    return new ResourceUsage(
        server, client, other, serverPid < 0 ? -1 : ProcStats.rssKib(serverPid));
  }
}
