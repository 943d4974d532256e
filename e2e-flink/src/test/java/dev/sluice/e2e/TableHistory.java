package dev.sluice.e2e;

import static java.util.Objects.requireNonNull;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.net.http.HttpResponse;
import java.util.ArrayList;
import java.util.List;

/**
 * A table's snapshots as Sluice holds them, loaded as root through the REST API: what the tests
 * check Flink's commits against, independently of Flink.
 */
final class TableHistory {
  private static final ObjectMapper JSON = new ObjectMapper();

  private final SluiceServerProcess server;
  private final String warehouse;

  TableHistory(SluiceServerProcess server, String warehouse) {
    this.server = requireNonNull(server, "server");
    this.warehouse = requireNonNull(warehouse, "warehouse");
  }

  /** The table's snapshots, oldest first (each with snapshot-id, timestamp-ms and summary). */
  List<JsonNode> snapshots(String namespace, String table) throws Exception {
    List<JsonNode> snapshots = new ArrayList<>();
    metadata(namespace, table).path("snapshots").forEach(snapshots::add);
    snapshots.sort(
        (a, b) -> Long.compare(a.path("timestamp-ms").asLong(), b.path("timestamp-ms").asLong()));
    return snapshots;
  }

  /** The table's current snapshot id (-1: none). */
  long currentSnapshotId(String namespace, String table) throws Exception {
    return metadata(namespace, table).path("current-snapshot-id").asLong(-1);
  }

  private JsonNode metadata(String namespace, String table) throws Exception {
    String path = CatalogAdmin.tablePath(server, warehouse, namespace, table);
    HttpResponse<String> load = server.send("GET", path, server.fetchToken(), null);
    assertThat(load.statusCode()).as("GET %s: %s", path, load.body()).isEqualTo(200);
    return JSON.readTree(load.body()).path("metadata");
  }
}
