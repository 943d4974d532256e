package dev.sluice.bench.soak;

import static dev.sluice.bench.load.LoadRunner.sleepUntil;

import dev.sluice.bench.Target;
import dev.sluice.bench.catalog.TableBodies;
import dev.sluice.bench.http.HttpClients;
import dev.sluice.bench.http.HttpConnection;
import dev.sluice.bench.http.HttpResult;
import dev.sluice.bench.load.OperationFailed;
import dev.sluice.bench.scenario.Fixture;
import dev.sluice.bench.target.Endpoint;
import dev.sluice.bench.target.ProcStats;
import dev.sluice.bench.target.SluiceAccess;
import java.io.IOException;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.EnumMap;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.SplittableRandom;
import java.util.concurrent.CountDownLatch;
import org.HdrHistogram.Histogram;

/**
 * A long mixed load on one Sluice target (issue 33): loads, commits, create/drop churn and token
 * grants at once, each client in a closed loop, for {@code seconds}; every {@code interval} the
 * server's RSS, threads and old generation after a full GC are read, with each kind's latencies of
 * that interval, so that a leak or a slowdown shows as a trend. The writers read their tables back
 * as they go: an acknowledged append a table does not hold is counted lost.
 */
public final class SoakPhase {
  /** Classes listed in the report's live-set growth. */
  private static final int TOP_CLASSES = 8;

  private final double seconds;
  private final double intervalSeconds;
  private final int clients;
  private final int readTables;

  public SoakPhase(double seconds, double intervalSeconds, int clients, int readTables) {
    if (seconds <= 0 || intervalSeconds <= 0 || intervalSeconds > seconds) {
      throw new IllegalArgumentException(
          "--soak "
              + seconds
              + " needs an interval in (0, "
              + seconds
              + "], not "
              + intervalSeconds);
    }
    if (clients < 4) {
      throw new IllegalArgumentException("--soak-clients must be at least 4, not " + clients);
    }
    if (readTables < 1) {
      throw new IllegalArgumentException("the soak loads fixture tables: --tables " + readTables);
    }
    this.seconds = seconds;
    this.intervalSeconds = intervalSeconds;
    this.clients = clients;
    this.readTables = readTables;
  }

  public SoakResult run(Target target) throws InterruptedException {
    Objects.requireNonNull(target, "target");
    if (target.serverPid() < 0) {
      throw new IllegalArgumentException("the soak reads its server's /proc: " + target.name());
    }
    Endpoint endpoint = target.endpoint();
    SoakTally tally = new SoakTally();
    long start = System.nanoTime() + 100_000_000L;
    long end = start + (long) (seconds * 1e9);
    CountDownLatch done = new CountDownLatch(clients);
    Map<SoakKind, Integer> roles = new EnumMap<>(SoakKind.class);
    List<Thread> threads = new ArrayList<>();
    for (int i = 0; i < clients; i++) {
      SoakKind kind = SoakKind.ofClient(i, clients);
      roles.merge(kind, 1, Integer::sum);
      int client = i;
      Thread t =
          new Thread(
              () -> {
                try {
                  loop(endpoint, kind, client, tally, start, end);
                } finally {
                  done.countDown();
                }
              },
              "soak-" + kind.name().toLowerCase() + "-" + i);
      t.setDaemon(true);
      threads.add(t);
      t.start();
    }
    Map<String, Long> firstLive = new HashMap<>();
    List<SoakSample> samples = sample(target.serverPid(), tally, start, end, firstLive);
    done.await();
    List<SoakResult.ClassGrowth> growth =
        growth(firstLive, HeapAfterGc.liveBytesByClass(target.serverPid()));
    System.out.printf(
        "soak %s: %,d appends read back, %d lost, %,d errors%n",
        target.name(),
        tally.verifiedAppends(),
        tally.lostAppends(),
        samples.stream().mapToLong(SoakSample::totalErrors).sum());
    return new SoakResult(
        target.name(),
        intervalSeconds,
        roles,
        samples,
        tally.verifiedAppends(),
        tally.lostAppends(),
        tally.errorSamples(),
        growth);
  }

  /** The classes whose live bytes grew most between the two histograms, largest first. */
  private static List<SoakResult.ClassGrowth> growth(
      Map<String, Long> first, Map<String, Long> last) {
    if (first.isEmpty() || last.isEmpty()) {
      return List.of();
    }
    return last.entrySet().stream()
        .map(
            e ->
                new SoakResult.ClassGrowth(
                    e.getKey(), first.getOrDefault(e.getKey(), 0L), e.getValue()))
        .sorted(Comparator.comparingLong(SoakResult.ClassGrowth::growth).reversed())
        .limit(TOP_CLASSES)
        .toList();
  }

  private List<SoakSample> sample(
      long pid, SoakTally tally, long start, long end, Map<String, Long> firstLive)
      throws InterruptedException {
    sleepUntil(start);
    tally.takeInterval(); // nothing before the start counts
    List<SoakSample> samples = new ArrayList<>();
    Map<SoakKind, Long> errorsBefore = tally.errors();
    double cpuBefore = ProcStats.cpuSeconds(pid);
    long intervalNanos = (long) (intervalSeconds * 1e9);
    for (int i = 1; start + i * intervalNanos <= end + 1_000_000L; i++) {
      sleepUntil(start + i * intervalNanos);
      Map<SoakKind, Histogram> latencies = tally.takeInterval();
      Map<SoakKind, Long> errorsNow = tally.errors();
      double cpuNow = ProcStats.cpuSeconds(pid);
      long rss = ProcStats.rssKib(pid);
      int threadCount = ProcStats.threads(pid);
      long oldGen = HeapAfterGc.oldGenKib(pid);
      Map<SoakKind, Long> ops = new EnumMap<>(SoakKind.class);
      Map<SoakKind, Long> errors = new EnumMap<>(SoakKind.class);
      Map<SoakKind, Long> p50 = new EnumMap<>(SoakKind.class);
      Map<SoakKind, Long> p99 = new EnumMap<>(SoakKind.class);
      Histogram all = new Histogram(SoakTally.MAX_TRACKED_MICROS, 3);
      for (SoakKind kind : SoakKind.values()) {
        Histogram h = latencies.get(kind);
        all.add(h);
        ops.put(kind, h.getTotalCount());
        errors.put(kind, errorsNow.get(kind) - errorsBefore.get(kind));
        p50.put(kind, h.getTotalCount() == 0 ? 0 : h.getValueAtPercentile(50));
        p99.put(kind, h.getTotalCount() == 0 ? 0 : h.getValueAtPercentile(99));
      }
      SoakSample s =
          new SoakSample(
              i,
              i * intervalSeconds,
              ops,
              errors,
              p50,
              p99,
              all.getTotalCount() == 0 ? 0 : all.getValueAtPercentile(99),
              cpuNow - cpuBefore,
              rss,
              threadCount,
              oldGen);
      samples.add(s);
      if (i == 1) {
        firstLive.putAll(HeapAfterGc.liveBytesByClass(pid));
      }
      System.out.printf(
          "soak: %4.0f s  %,7d ops  %d errors  p99 %.2f ms  RSS %,d MiB  %d threads  old gen %s%n",
          s.endSeconds(),
          s.totalOperations(),
          s.totalErrors(),
          s.p99AllMicros() / 1000.0,
          rss / 1024,
          threadCount,
          oldGen < 0 ? "?" : String.format("%.1f MiB", oldGen / 1024.0));
      errorsBefore = errorsNow;
      cpuBefore = ProcStats.cpuSeconds(pid);
    }
    return samples;
  }

  /** One client's closed loop of its kind of work until {@code end}; errors are tallied. */
  private void loop(
      Endpoint endpoint, SoakKind kind, int client, SoakTally tally, long start, long end) {
    // Token grants carry credentials in the form: the client sends no Authorization header.
    Endpoint as = kind == SoakKind.TOKEN ? endpoint.as(endpoint.name(), null) : endpoint;
    String tag = endpoint.name().replace('-', '_') + "_c" + client;
    SplittableRandom random = new SplittableRandom(31L * client + 7);
    try (HttpClients connections = as.clients("raw");
        HttpConnection http = connections.open()) {
      SoakWriter writer =
          kind == SoakKind.COMMIT
              ? new SoakWriter(
                  http, endpoint.tables(Fixture.COMMIT_NAMESPACE), "soak_" + tag, client)
              : null;
      sleepUntil(start);
      long n = 0;
      while (System.nanoTime() < end) {
        try {
          if (writer != null) {
            writer.prepare(tally);
          }
          long t0 = System.nanoTime();
          switch (kind) {
            case LOAD -> load(http, endpoint, random);
            case COMMIT -> writer.append();
            case CHURN -> churn(http, endpoint, "churn_" + tag + "_" + n++);
            case TOKEN -> token(http, endpoint);
          }
          tally.done(kind, (System.nanoTime() - t0) / 1000);
        } catch (IOException | RuntimeException e) {
          tally.failed(kind, e);
        }
      }
      if (writer != null) {
        writer.verify(tally);
      }
    } catch (IOException | RuntimeException e) {
      tally.failed(kind, e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }

  private void load(HttpConnection http, Endpoint endpoint, SplittableRandom random)
      throws IOException {
    String path =
        endpoint.table(Fixture.READ_NAMESPACE, Fixture.readTable(random.nextInt(readTables)));
    require(http.get(path), "load " + path);
  }

  private static void churn(HttpConnection http, Endpoint endpoint, String name)
      throws IOException {
    require(
        http.postJson(endpoint.tables(Fixture.CREATE_NAMESPACE), TableBodies.createTable(name)),
        "create " + name);
    String path = endpoint.table(Fixture.CREATE_NAMESPACE, name);
    require(http.send("DELETE", path, null, null), "drop " + name);
  }

  private static void token(HttpConnection http, Endpoint endpoint) throws IOException {
    require(
        http.send(
            "POST",
            endpoint.basePath() + "/v1/oauth/tokens",
            SluiceAccess.rootTokenForm(),
            "application/x-www-form-urlencoded"),
        "token grant");
  }

  private static void require(HttpResult result, String what) throws IOException {
    if (!result.ok()) {
      throw new OperationFailed(what, result);
    }
  }
}
