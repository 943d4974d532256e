package dev.sluice.bench.soak;

import com.fasterxml.jackson.databind.JsonNode;
import dev.sluice.bench.catalog.Json;
import dev.sluice.bench.catalog.TableBodies;
import dev.sluice.bench.catalog.TableState;
import dev.sluice.bench.http.HttpConnection;
import dev.sluice.bench.http.HttpResult;
import dev.sluice.bench.load.OperationFailed;
import java.io.IOException;
import java.util.HashSet;
import java.util.Set;
import java.util.SplittableRandom;

/**
 * A soak writer: the only writer of its table, it appends {@value #PER_TABLE} snapshots, then reads
 * the table back and counts the acknowledged snapshots it does not hold, then moves to a fresh
 * table (so that commit latency measures the server over time, not a table's growing history).
 */
final class SoakWriter {
  static final int PER_TABLE = 200;

  private final HttpConnection http;
  private final String tablesPath;
  private final String namePrefix;
  private final SplittableRandom random;
  private final Set<Long> acked = new HashSet<>();
  private String path;
  private TableState state;
  private int tables;

  SoakWriter(HttpConnection http, String tablesPath, String namePrefix, long seed) {
    this.http = http;
    this.tablesPath = tablesPath;
    this.namePrefix = namePrefix;
    this.random = new SplittableRandom(seed);
  }

  /** Untimed: makes the first table, or checks a full one and makes the next. */
  void prepare(SoakTally tally) throws IOException {
    if (path != null && acked.size() < PER_TABLE) {
      return;
    }
    verify(tally);
    String name = namePrefix + "_" + tables++;
    HttpResult created = http.postJson(tablesPath, TableBodies.createTable(name));
    if (!created.ok()) {
      throw new OperationFailed("create " + name, created);
    }
    path = tablesPath + "/" + name;
    state = TableState.parse(created.body());
  }

  /** Timed: one append, conditional on {@code main} being where this writer left it. */
  void append() throws IOException {
    long snapshotId = random.nextLong(1, Long.MAX_VALUE);
    HttpResult result =
        http.postJson(path, TableBodies.append(state, snapshotId, System.currentTimeMillis()));
    if (!result.ok()) {
      // A failed commit may still have landed: go on from the table as it is.
      HttpResult fresh = http.get(path);
      if (fresh.ok()) {
        state = TableState.parse(fresh.body());
      }
      throw new OperationFailed("commit to " + path, result);
    }
    state = state.after(snapshotId);
    acked.add(snapshotId);
  }

  /** Reads the current table back: the acknowledged snapshots it does not hold are lost. */
  void verify(SoakTally tally) throws IOException {
    if (path == null) {
      return;
    }
    HttpResult loaded = http.get(path);
    if (!loaded.ok()) {
      throw new OperationFailed("verify " + path, loaded);
    }
    Set<Long> held = new HashSet<>();
    for (JsonNode snapshot : Json.tree(loaded.body()).path("metadata").path("snapshots")) {
      held.add(snapshot.path("snapshot-id").asLong());
    }
    long lost = acked.stream().filter(id -> !held.contains(id)).count();
    tally.verified(acked.size(), lost);
    acked.clear();
    path = null;
  }
}
