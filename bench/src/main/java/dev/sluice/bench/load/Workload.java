package dev.sluice.bench.load;

import dev.sluice.bench.http.HttpConnection;

/**
 * A prepared scenario on one target: hands each client its operation, bound to its own connection.
 */
@FunctionalInterface
public interface Workload {
  Operation operation(int client, HttpConnection http);
}
