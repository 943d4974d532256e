package dev.sluice.bench.catalog;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;

/** Jackson, shared; and a streaming reader for the few top-level fields a hot loop needs. */
public final class Json {
  public static final ObjectMapper MAPPER = new ObjectMapper();
  private static final JsonFactory FACTORY = MAPPER.getFactory();

  private Json() {}

  public static JsonNode tree(byte[] body) {
    try {
      return MAPPER.readTree(body);
    } catch (IOException e) {
      throw new UncheckedIOException(
          "Not JSON: " + new String(body, 0, Math.min(body.length, 200), StandardCharsets.UTF_8),
          e);
    }
  }

  public static byte[] bytes(Object value) {
    try {
      return MAPPER.writeValueAsBytes(value);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /**
   * The text of a top-level string field, or null; other fields are skipped without building a tree
   * (a listing's {@code next-page-token} is read after every page).
   */
  public static String topLevelText(byte[] body, String field) throws IOException {
    return topLevelText(body, 0, body.length, field);
  }

  /** The same, of the JSON in {@code body[offset, offset + length)}. */
  public static String topLevelText(byte[] body, int offset, int length, String field)
      throws IOException {
    try (JsonParser p = FACTORY.createParser(body, offset, length)) {
      if (p.nextToken() != JsonToken.START_OBJECT) {
        return null;
      }
      while (p.nextToken() == JsonToken.FIELD_NAME) {
        String name = p.currentName();
        JsonToken value = p.nextToken();
        if (name.equals(field)) {
          return value == JsonToken.VALUE_NULL ? null : p.getValueAsString();
        }
        p.skipChildren();
      }
      return null;
    }
  }
}
