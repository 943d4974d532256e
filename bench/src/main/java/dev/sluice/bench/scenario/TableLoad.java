package dev.sluice.bench.scenario;

import dev.sluice.bench.http.HttpConnection;
import dev.sluice.bench.http.HttpResult;
import dev.sluice.bench.load.Operation;
import dev.sluice.bench.load.OperationFailed;
import java.util.function.Supplier;

/** The operation of the loadTable scenarios answered in full: one GET that must answer 2xx. */
final class TableLoad {
  private TableLoad() {}

  /** Loads the table at the path {@code next} gives, each time it runs. */
  static Operation operation(HttpConnection http, Supplier<String> next) {
    return () -> {
      String path = next.get();
      HttpResult result = http.get(path);
      if (!result.ok()) {
        throw new OperationFailed("load " + path, result);
      }
      return 0;
    };
  }
}
