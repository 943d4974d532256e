package dev.sluice.cli;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.UncheckedIOException;
import java.util.function.BiConsumer;
import java.util.function.Consumer;

/**
 * Where results go. In json mode a command prints the server's document unchanged, so scripts see
 * the API's shape and not one we invented; in text mode each command renders its own lines.
 */
final class Console {
  private final PrintWriter out;
  private final PrintWriter err;
  private final OutputFormat format;
  private final ObjectMapper mapper = new ObjectMapper();

  Console(PrintWriter out, PrintWriter err, OutputFormat format) {
    this.out = out;
    this.err = err;
    this.format = format;
  }

  /**
   * Shows a result. A response without a body (204) prints nothing in json mode: there is no
   * document to pass on, and the exit status already says it worked.
   */
  void show(JsonNode body, Consumer<PrintWriter> text) {
    if (format == OutputFormat.JSON) {
      if (body != null) {
        try {
          out.println(mapper.writerWithDefaultPrettyPrinter().writeValueAsString(body));
        } catch (IOException e) {
          throw new UncheckedIOException(e);
        }
      }
    } else {
      text.accept(out);
    }
    out.flush();
  }

  /**
   * As {@link #show(JsonNode, Consumer)}: json mode prints the document, text mode renders the
   * contract's record, read only then.
   */
  <T> void show(Answer<T> answer, BiConsumer<PrintWriter, T> text) {
    show(answer.document(), out -> text.accept(out, answer.value()));
  }

  /** A line for people only; json mode stays one document. */
  void note(String line) {
    if (format == OutputFormat.TEXT) {
      out.println(line);
      out.flush();
    }
  }

  void error(String message) {
    err.println("error: " + message);
    err.flush();
  }
}
