package dev.sluice.e2e;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.regex.Pattern;

/**
 * The messages of docs/ENGINES.md's troubleshooting tables, as a test checks them against what a
 * user really sees: a row's message ({@code | `message` | cause |}) with its {@code …} standing for
 * any text and its example names (the bucket {@code B}, the table {@code ns.t}, ...) replaced by
 * the test's own.
 */
final class TroubleshootingRows {
  private TroubleshootingRows() {}

  /**
   * The pattern of the one row whose message contains {@code marker}; {@code names} maps the row's
   * example names to the test's, replaced in order.
   */
  static Pattern row(String marker, Map<String, String> names) {
    List<String> rows = new ArrayList<>();
    try {
      for (String line : Files.readAllLines(DocSnippets.page())) {
        if (line.startsWith("| `") && line.indexOf("` |") > 3) {
          String message = line.substring(3, line.indexOf("` |"));
          if (message.contains(marker)) {
            rows.add(message);
          }
        }
      }
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    if (rows.size() != 1) {
      throw new IllegalStateException(
          rows.size() + " troubleshooting rows of " + DocSnippets.page() + " contain " + marker);
    }
    StringBuilder regex = new StringBuilder("(?s).*");
    for (String piece : rows.get(0).split("…", -1)) {
      String named = piece;
      for (Map.Entry<String, String> n : names.entrySet()) {
        named = named.replace(n.getKey(), n.getValue());
      }
      regex.append(Pattern.quote(named)).append(".*");
    }
    return Pattern.compile(regex.toString());
  }
}
