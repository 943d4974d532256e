package dev.sluice.bench.load;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.util.List;

/**
 * Runs a workload the way wrk and h2load do ({@code --client loop}): one thread drives every
 * client's keep-alive connection with a selector, instead of one blocking thread per client. On a
 * machine whose cores the load generator shares with the server, N request threads queue for the
 * CPU beside the server's own, and that queueing shows up as the server's latency; one loop thread
 * competes far less. Same closed loop, warm-up, window, histogram and resource probe as {@link
 * LoadRunner}: a client sends its next request as soon as its previous response is complete, and an
 * operation's latency runs from the start of its request (of its connect, when it needs one) to the
 * last byte of its response. Only workloads whose every operation is one request run here ({@link
 * Workload#requests}).
 */
public final class EventLoopRunner {
  private final long warmupNanos;
  private final long measureNanos;

  public EventLoopRunner(double warmupSeconds, double measureSeconds) {
    this.warmupNanos = (long) (warmupSeconds * 1e9);
    this.measureNanos = (long) (measureSeconds * 1e9);
  }

  /** {@code sources}: one per client, each on its own connection to {@code host:port}. */
  public RunResult run(
      String scenario,
      String target,
      int round,
      List<RequestSource> sources,
      String host,
      int port,
      ResourceProbe probe)
      throws IOException, InterruptedException {
    if (sources.isEmpty() || sources.contains(null)) {
      throw new IllegalArgumentException("A request source per client is needed: " + sources);
    }
    long start = System.nanoTime() + 50_000_000L; // as LoadRunner: set up before anyone starts
    long measureStart = start + warmupNanos;
    long measureEnd = measureStart + measureNanos;
    EventLoop loop =
        new EventLoop(sources, new InetSocketAddress(host, port), start, measureStart, measureEnd);
    Thread thread = new Thread(loop, "bench-loop");
    thread.setDaemon(true);
    thread.start();
    LoadRunner.sleepUntil(measureStart);
    probe.begin();
    long windowStartMillis = System.currentTimeMillis();
    LoadRunner.sleepUntil(measureEnd);
    ResourceUsage usage = probe.end();
    long windowEndMillis = System.currentTimeMillis();
    thread.join(); // each connection ends with its last response, or its 60 s timeout
    if (loop.crash() != null) {
      throw new IOException("The event loop failed", loop.crash());
    }
    return new RunResult(
        scenario,
        target,
        round,
        sources.size(),
        "loop",
        measureNanos / 1e9,
        loop.operations(),
        0,
        loop.errors(),
        loop.errorSamples(),
        loop.histogram(),
        usage,
        windowStartMillis,
        windowEndMillis);
  }
}
