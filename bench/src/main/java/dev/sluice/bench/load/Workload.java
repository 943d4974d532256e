package dev.sluice.bench.load;

import dev.sluice.bench.http.HttpConnection;
import dev.sluice.bench.http.RequestEncoder;

/**
 * A prepared scenario on one target: hands each client its operation, bound to its own connection.
 */
@FunctionalInterface
public interface Workload {
  Operation operation(int client, HttpConnection http);

  /**
   * The same client's work for the event-loop runner, when every operation is exactly one request
   * (requests encoded with {@code encoder}); null when it is not, and the scenario then runs on
   * threads with blocking connections whatever {@code --client} says.
   */
  default RequestSource requests(int client, RequestEncoder encoder) {
    return null;
  }
}
