package dev.sluice.e2e;

import static java.util.Objects.requireNonNull;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.List;
import java.util.function.Predicate;

/**
 * The access-log records of a Sluice server process ({@link AccessLogLines}), read as they grow.
 */
final class SluiceAccessLog {
  static final String TABLE_ROUTE =
      "/api/catalog/v1/{prefix}/namespaces/{namespace}/tables/{table}";
  static final String CREDENTIALS_ROUTE = TABLE_ROUTE + "/credentials";

  private final SluiceServerProcess server;

  SluiceAccessLog(SluiceServerProcess server) {
    this.server = requireNonNull(server, "server");
  }

  /** Every record so far. */
  List<JsonNode> records() {
    return AccessLogLines.records(server.logTail(Integer.MAX_VALUE).lines());
  }

  /** A mark for {@link #since}: the number of records so far. */
  int mark() {
    return records().size();
  }

  /**
   * The records since {@code mark}, once {@code done} holds of them (or after 5 s): a line is
   * written just after its answer, so a client may have its answer before Sluice logged it.
   */
  List<JsonNode> since(int mark, Predicate<List<JsonNode>> done) throws InterruptedException {
    long until = System.nanoTime() + 5_000_000_000L;
    while (true) {
      List<JsonNode> all = records();
      List<JsonNode> since = all.subList(mark, all.size());
      if (done.test(since) || System.nanoTime() > until) {
        return since;
      }
      Thread.sleep(50);
    }
  }

  /** The table loads (GET of the table route) among {@code records}. */
  static List<JsonNode> tableLoads(List<JsonNode> records) {
    return records.stream()
        .filter(r -> r.path("method").asText().equals("GET"))
        .filter(r -> r.path("route").asText().equals(TABLE_ROUTE))
        .toList();
  }

  /** The records that name an Idempotency-Key. */
  static List<JsonNode> keyed(List<JsonNode> records) {
    return records.stream().filter(r -> r.has("idempotencyKey")).toList();
  }
}
