package dev.sluice.cli;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.function.Function;

/**
 * A management-API answer twice over: the server's document as sent, which {@code --output json}
 * prints unchanged, and the contract's record ({@code dev.sluice.api}) that text output reads its
 * fields from, so a renamed field breaks the build and not a table. The record is read only when
 * asked for: json mode passes on whatever the server sent.
 */
final class Answer<T> {
  private final JsonNode document;
  private final Function<JsonNode, T> reader;

  Answer(JsonNode document, Function<JsonNode, T> reader) {
    this.document = document;
    this.reader = reader;
  }

  /** The server's document; null when it sent no body. */
  JsonNode document() {
    return document;
  }

  /** The document as the contract's record; null when the server sent no body. */
  T value() {
    return document == null ? null : reader.apply(document);
  }
}
