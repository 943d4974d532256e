package dev.sluice.bench.load;

import dev.sluice.bench.http.HttpClients;
import dev.sluice.bench.http.HttpConnection;
import java.io.IOException;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicLong;
import org.HdrHistogram.Histogram;

/**
 * Runs a workload with N client threads, each on its own keep-alive connection, in a closed loop: a
 * warm-up (JIT, caches, connection set-up; not recorded), then a fixed measured window. Each thread
 * records into its own histogram (no shared state on the hot path); they are merged at the end.
 */
public final class LoadRunner {
  static final long MAX_TRACKED_MICROS = 120_000_000L;

  private final int clients;
  private final long warmupNanos;
  private final long measureNanos;

  public LoadRunner(int clients, double warmupSeconds, double measureSeconds) {
    this.clients = clients;
    this.warmupNanos = (long) (warmupSeconds * 1e9);
    this.measureNanos = (long) (measureSeconds * 1e9);
  }

  public RunResult run(
      String scenario,
      String target,
      int round,
      Workload workload,
      HttpClients connections,
      ResourceProbe probe)
      throws InterruptedException {
    long start = System.nanoTime() + 50_000_000L; // all threads created before anyone starts
    long measureStart = start + warmupNanos;
    long measureEnd = measureStart + measureNanos;
    List<Client> threads = new ArrayList<>();
    CountDownLatch done = new CountDownLatch(clients);
    Set<String> errorSamples = Collections.synchronizedSet(new LinkedHashSet<>());
    for (int i = 0; i < clients; i++) {
      Client client =
          new Client(i, workload, connections, start, measureStart, measureEnd, errorSamples, done);
      threads.add(client);
      client.start();
    }
    sleepUntil(measureStart);
    probe.begin();
    long windowStartMillis = System.currentTimeMillis();
    sleepUntil(measureEnd);
    ResourceUsage usage = probe.end();
    long windowEndMillis = System.currentTimeMillis();
    done.await();

    Histogram merged = new Histogram(MAX_TRACKED_MICROS, 3);
    long ops = 0;
    long conflicts = 0;
    long errors = 0;
    for (Client c : threads) {
      merged.add(c.histogram);
      ops += c.operations;
      conflicts += c.conflicts;
      errors += c.errors.get();
    }
    List<String> samples;
    synchronized (errorSamples) {
      samples = List.copyOf(errorSamples);
    }
    return new RunResult(
        scenario,
        target,
        round,
        clients,
        connections.kind(),
        measureNanos / 1e9,
        ops,
        conflicts,
        errors,
        samples,
        merged,
        usage,
        windowStartMillis,
        windowEndMillis);
  }

  /** Sleeps until {@code System.nanoTime()} reaches {@code nanoTime}. */
  public static void sleepUntil(long nanoTime) throws InterruptedException {
    long left;
    while ((left = nanoTime - System.nanoTime()) > 0) {
      Thread.sleep(left / 1_000_000, (int) (left % 1_000_000));
    }
  }

  private static final class Client extends Thread {
    private final int index;
    private final Workload workload;
    private final HttpClients connections;
    private final long start;
    private final long measureStart;
    private final long measureEnd;
    private final Set<String> errorSamples;
    private final CountDownLatch done;
    final Histogram histogram = new Histogram(MAX_TRACKED_MICROS, 3);
    final AtomicLong errors = new AtomicLong();
    long operations;
    long conflicts;

    Client(
        int index,
        Workload workload,
        HttpClients connections,
        long start,
        long measureStart,
        long measureEnd,
        Set<String> errorSamples,
        CountDownLatch done) {
      super("bench-client-" + index);
      setDaemon(true);
      this.index = index;
      this.workload = workload;
      this.connections = connections;
      this.start = start;
      this.measureStart = measureStart;
      this.measureEnd = measureEnd;
      this.errorSamples = errorSamples;
      this.done = done;
    }

    @Override
    public void run() {
      try (HttpConnection http = connections.open()) {
        Operation op = workload.operation(index, http);
        sleepUntil(start);
        long now;
        while ((now = System.nanoTime()) < measureEnd) {
          boolean measured = now >= measureStart;
          try {
            int retried = op.run();
            long micros = (System.nanoTime() - now) / 1000;
            if (measured) {
              histogram.recordValue(Math.min(micros, MAX_TRACKED_MICROS));
              operations++;
              conflicts += retried;
            }
          } catch (IOException | RuntimeException e) {
            if (measured) {
              errors.incrementAndGet();
            }
            if (errorSamples.size() < 5) {
              errorSamples.add(e.getClass().getSimpleName() + ": " + e.getMessage());
            }
          }
        }
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      } finally {
        done.countDown();
      }
    }
  }
}
