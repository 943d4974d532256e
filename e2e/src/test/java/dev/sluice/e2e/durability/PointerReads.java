package dev.sluice.e2e.durability;

import static java.util.Objects.requireNonNull;

import java.net.http.HttpResponse;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.apache.iceberg.catalog.TableIdentifier;

/**
 * A plain {@code GET} loadTable on one replica (what a client's {@code loadTable} sends, without
 * the client's own work), reduced to the two fields a staleness check compares: the metadata
 * location and the metadata's {@code last-sequence-number}.
 */
final class PointerReads {
  /** What one load answered. */
  record Loaded(String metadataLocation, long lastSequenceNumber) {}

  private static final Pattern LOCATION =
      Pattern.compile("\"metadata-location\"\\s*:\\s*\"([^\"]+)\"");
  private static final Pattern LAST_SEQUENCE =
      Pattern.compile("\"last-sequence-number\"\\s*:\\s*(\\d+)");

  private final ReplicaCluster cluster;
  private final List<String> tokens = new ArrayList<>();

  PointerReads(ReplicaCluster cluster) {
    this.cluster = requireNonNull(cluster, "cluster");
    for (ReplicaCluster.Replica r : cluster.replicas()) {
      tokens.add(cluster.fetchToken(r));
    }
  }

  /** Loads {@code table} (one namespace level) through {@code replica}; fails unless 200. */
  Loaded load(int replica, TableIdentifier table) {
    String path =
        "/api/catalog/v1/"
            + ReplicaCluster.CATALOG
            + "/namespaces/"
            + table.namespace().level(0)
            + "/tables/"
            + table.name();
    HttpResponse<String> response =
        cluster.send(cluster.replica(replica), "GET", path, tokens.get(replica), null);
    if (response.statusCode() != 200) {
      throw new IllegalStateException(
          "GET " + path + " on r" + replica + " answered " + response.statusCode());
    }
    String body = response.body();
    Matcher location = LOCATION.matcher(body);
    Matcher sequence = LAST_SEQUENCE.matcher(body);
    if (!location.find() || !sequence.find()) {
      throw new IllegalStateException("GET " + path + " on r" + replica + ": no pointer in body");
    }
    return new Loaded(location.group(1), Long.parseLong(sequence.group(1)));
  }
}
