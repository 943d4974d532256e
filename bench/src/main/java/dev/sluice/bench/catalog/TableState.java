package dev.sluice.bench.catalog;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import java.io.IOException;

/**
 * What a writer must know of a table to commit the next append: its location, the head of {@code
 * main} and the last sequence number. Read from a load-table or commit response with a streaming
 * parser, because a hot table's metadata grows with every snapshot and a full tree would make the
 * load generator, not the server, the bottleneck.
 */
public record TableState(String location, Long currentSnapshotId, long lastSequenceNumber) {
  private static final JsonFactory FACTORY = Json.MAPPER.getFactory();

  public TableState after(long snapshotId) {
    return new TableState(location, snapshotId, lastSequenceNumber + 1);
  }

  /** From {@code {"metadata-location":…, "metadata": {…}}}. */
  public static TableState parse(byte[] loadTableResponse) throws IOException {
    try (JsonParser p = FACTORY.createParser(loadTableResponse)) {
      expect(p.nextToken(), JsonToken.START_OBJECT);
      while (p.nextToken() == JsonToken.FIELD_NAME) {
        String name = p.currentName();
        JsonToken value = p.nextToken();
        if (name.equals("metadata") && value == JsonToken.START_OBJECT) {
          return metadata(p);
        }
        p.skipChildren();
      }
    }
    throw new IOException("No metadata in the response");
  }

  private static TableState metadata(JsonParser p) throws IOException {
    String location = null;
    Long current = null;
    long lastSequence = 0;
    while (p.nextToken() == JsonToken.FIELD_NAME) {
      String name = p.currentName();
      JsonToken value = p.nextToken();
      switch (name) {
        case "location" -> location = p.getText();
        case "current-snapshot-id" ->
            current = value == JsonToken.VALUE_NULL ? null : p.getLongValue();
        case "last-sequence-number" -> lastSequence = p.getLongValue();
        default -> p.skipChildren();
      }
    }
    // Format v2 writers use -1 for "no current snapshot" in older metadata files.
    return new TableState(
        location, current != null && current == -1 ? null : current, lastSequence);
  }

  private static void expect(JsonToken actual, JsonToken expected) throws IOException {
    if (actual != expected) {
      throw new IOException("Expected " + expected + " but found " + actual);
    }
  }
}
