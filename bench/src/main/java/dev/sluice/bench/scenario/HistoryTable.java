package dev.sluice.bench.scenario;

import dev.sluice.bench.catalog.CatalogCalls;
import dev.sluice.bench.catalog.TableBodies;
import dev.sluice.bench.catalog.TableState;
import dev.sluice.bench.http.HttpClients;
import dev.sluice.bench.http.HttpConnection;
import dev.sluice.bench.http.HttpResult;
import dev.sluice.bench.load.ResourceProbe;
import dev.sluice.bench.load.ResourceUsage;
import dev.sluice.bench.load.RunResult;
import dev.sluice.bench.target.Endpoint;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.SplittableRandom;
import org.HdrHistogram.Histogram;

/**
 * One table of the history phase on one target, written by one client over one keep-alive
 * connection: grown to N snapshots (unmeasured, several appends per commit request), then a window
 * of single appends timed one by one. Every snapshot is a metadata-only append as {@code
 * commit-distinct} sends it ({@link TableBodies#append}), so the table's snapshot count is its last
 * sequence number.
 */
public final class HistoryTable implements AutoCloseable {
  /**
   * Single appends (unmeasured) that end each table's growth, so that the server's caches hold this
   * table and its metadata of N snapshots, as they would for a table in use.
   */
  public static final int LAST_SINGLE_APPENDS = 20;

  private static final long MAX_TRACKED_MICROS = 120_000_000L;

  private final Endpoint endpoint;
  private final HttpClients clients;
  private final HttpConnection http;
  private final String path;
  private final SplittableRandom random;
  private TableState state;

  private HistoryTable(
      Endpoint endpoint, HttpClients clients, HttpConnection http, String path, TableState state) {
    this.endpoint = endpoint;
    this.clients = clients;
    this.http = http;
    this.path = path;
    this.state = state;
    this.random = new SplittableRandom(path.hashCode());
  }

  /** {@code history-500}, …: the scenario name of the window measured at {@code snapshots}. */
  public static String nameFor(int snapshots) {
    return "history-" + snapshots;
  }

  /** Whether {@code scenario} is a window of the history phase. */
  public static boolean isHistory(String scenario) {
    return scenario.startsWith("history-");
  }

  /** Creates (or, if it exists, loads) table {@code name} in the commit namespace. */
  public static HistoryTable open(Endpoint endpoint, String name) throws IOException {
    return open(endpoint, Fixture.COMMIT_NAMESPACE, name);
  }

  /** Creates (or, if it exists, loads) table {@code namespace.name}. */
  public static HistoryTable open(Endpoint endpoint, String namespace, String name)
      throws IOException {
    Objects.requireNonNull(endpoint, "endpoint");
    HttpClients clients = endpoint.clients("raw");
    HttpConnection http = clients.open();
    try {
      TableState state = new CatalogCalls(endpoint, http).ensureTable(namespace, name);
      return new HistoryTable(endpoint, clients, http, endpoint.table(namespace, name), state);
    } catch (IOException | RuntimeException e) {
      http.close();
      clients.close();
      throw e;
    }
  }

  /** The snapshots the table holds: each append adds one and bumps the sequence number by one. */
  public long snapshots() {
    return state.lastSequenceNumber();
  }

  /**
   * Appends until the table holds {@code n} snapshots, {@code perRequest} per commit request;
   * returns the number of requests sent.
   */
  public int growTo(long n, int perRequest) throws IOException {
    if (perRequest < 1) {
      throw new IllegalArgumentException("perRequest must be positive: " + perRequest);
    }
    int requests = 0;
    while (snapshots() < n) {
      long[] ids = new long[(int) Math.min(perRequest, n - snapshots())];
      for (int i = 0; i < ids.length; i++) {
        ids[i] = random.nextLong(1, Long.MAX_VALUE);
      }
      HttpResult result =
          http.postJson(path, TableBodies.appends(state, ids, System.currentTimeMillis()));
      CatalogCalls.require(result, "grow " + path + " by " + ids.length + " snapshots");
      for (long id : ids) {
        state = state.after(id);
      }
      requests++;
    }
    return requests;
  }

  /**
   * {@code commits} single appends, one after the other, each timed from sending its request to the
   * last byte of the answer (the request body is built before); the server's CPU is read around the
   * whole window. A failed commit is counted, and the table reloaded before the next.
   */
  public RunResult measure(String scenario, int commits, ResourceProbe probe) throws IOException {
    Histogram latency = new Histogram(MAX_TRACKED_MICROS, 3);
    List<String> errorSamples = new ArrayList<>();
    long errors = 0;
    long landed = 0;
    probe.begin();
    long windowStart = System.currentTimeMillis();
    long t0 = System.nanoTime();
    for (int i = 0; i < commits; i++) {
      long id = random.nextLong(1, Long.MAX_VALUE);
      byte[] body = TableBodies.append(state, id, System.currentTimeMillis());
      long start = System.nanoTime();
      HttpResult result = http.postJson(path, body);
      long micros = (System.nanoTime() - start) / 1000;
      if (result.ok()) {
        latency.recordValue(Math.min(micros, MAX_TRACKED_MICROS));
        landed++;
        state = state.after(id);
      } else {
        errors++;
        if (errorSamples.size() < 5) {
          errorSamples.add(
              "commit to " + path + ": HTTP " + result.status() + " " + result.excerpt());
        }
        state = TableState.parse(CatalogCalls.require(http.get(path), "reload " + path).body());
      }
    }
    double seconds = (System.nanoTime() - t0) / 1e9;
    ResourceUsage usage = probe.end();
    return new RunResult(
        scenario,
        endpoint.name(),
        1,
        1,
        clients.kind(),
        seconds,
        landed,
        0,
        errors,
        errorSamples,
        latency,
        usage,
        windowStart,
        System.currentTimeMillis());
  }

  @Override
  public void close() {
    http.close();
    clients.close();
  }
}
