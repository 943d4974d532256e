package dev.sluice.bench.scenario;

import dev.sluice.bench.catalog.TableBodies;
import dev.sluice.bench.catalog.TableState;
import dev.sluice.bench.http.HttpConnection;
import dev.sluice.bench.http.HttpResult;
import dev.sluice.bench.load.Operation;
import dev.sluice.bench.load.OperationFailed;
import java.io.IOException;
import java.util.SplittableRandom;

/**
 * A writer appending snapshots to one table the way Iceberg's client commits: POST the new snapshot
 * with the condition that {@code main} is still where it last saw it; on 409 (another writer got
 * there first) reload the table and try again. One operation = one landed append.
 */
final class Appender implements Operation {
  private static final int MAX_ATTEMPTS = 200;

  private final HttpConnection http;
  private final String path;
  private final SplittableRandom random;
  private TableState state;

  Appender(HttpConnection http, String path, TableState initial, long seed) {
    this.http = http;
    this.path = path;
    this.state = initial;
    this.random = new SplittableRandom(seed);
  }

  @Override
  public int run() throws IOException {
    for (int conflicts = 0; conflicts < MAX_ATTEMPTS; conflicts++) {
      long snapshotId = random.nextLong(1, Long.MAX_VALUE);
      HttpResult result =
          http.postJson(path, TableBodies.append(state, snapshotId, System.currentTimeMillis()));
      if (result.ok()) {
        state = state.after(snapshotId);
        return conflicts;
      }
      if (result.status() != 409) {
        throw new OperationFailed("commit to " + path, result);
      }
      HttpResult fresh = http.get(path);
      if (!fresh.ok()) {
        throw new OperationFailed("reload " + path, fresh);
      }
      state = TableState.parse(fresh.body());
    }
    throw new OperationFailed(
        "commit to " + path + ": still conflicting after " + MAX_ATTEMPTS + " attempts");
  }
}
