package dev.sluice.e2e;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The configuration snippets of {@code docs/ENGINES.md}, as the engine tests use them: a test
 * configures its engine from the page's text, so a snippet that drifts from what works fails a test
 * instead of a user. A snippet is the fenced block right after a {@code <!-- snippet: id -->} line;
 * {@code <name>} in it is a placeholder the test fills in. Every placeholder must be given and
 * every value given must be used, so neither side can quietly drop a setting.
 */
public final class DocSnippets {
  private static final Pattern MARKER = Pattern.compile("^<!-- snippet: ([a-z0-9-]+) -->$");
  private static final Pattern PLACEHOLDER = Pattern.compile("<([A-Za-z][A-Za-z0-9.-]*)>");

  private DocSnippets() {}

  /** The page the snippets are read from. */
  public static Path page() {
    return page("ENGINES.md");
  }

  /** Another page of docs/, for the tests that follow it (MIGRATING.md). */
  public static Path page(String name) {
    return Path.of(System.getProperty("sluice.repo.root", ".."), "docs", name);
  }

  /** Every snippet of the page by id, as written (placeholders not filled in). */
  public static Map<String, String> all() {
    return all(page());
  }

  /** Every snippet of {@code page} by id, as written. */
  public static Map<String, String> all(Path page) {
    List<String> lines;
    try {
      lines = Files.readAllLines(page);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    Map<String, String> snippets = new LinkedHashMap<>();
    for (int i = 0; i < lines.size(); i++) {
      Matcher m = MARKER.matcher(lines.get(i).strip());
      if (!m.matches()) {
        continue;
      }
      String id = m.group(1);
      if (i + 1 >= lines.size() || !lines.get(i + 1).startsWith("```")) {
        throw new IllegalStateException(
            "snippet " + id + ": no fenced block right after its marker");
      }
      StringBuilder body = new StringBuilder();
      int j = i + 2;
      for (; j < lines.size() && !lines.get(j).startsWith("```"); j++) {
        body.append(lines.get(j)).append('\n');
      }
      if (j == lines.size()) {
        throw new IllegalStateException("snippet " + id + ": its fenced block is not closed");
      }
      if (snippets.put(id, body.toString()) != null) {
        throw new IllegalStateException("snippet " + id + " appears twice in " + page);
      }
      i = j;
    }
    return snippets;
  }

  /**
   * The placeholders every catalog snippet has, {@code uri}, {@code warehouse}, {@code clientId}
   * and {@code secret} (from {@code credential}, {@code clientId:secret}), and {@code more}.
   */
  public static Map<String, String> catalogValues(
      String uri, String warehouse, String credential, Map<String, String> more) {
    int colon = credential.indexOf(':');
    if (colon <= 0) {
      throw new IllegalArgumentException("not clientId:secret: the credential has no ':'");
    }
    Map<String, String> values = new LinkedHashMap<>(more);
    values.put("uri", uri);
    values.put("warehouse", warehouse);
    values.put("clientId", credential.substring(0, colon));
    values.put("secret", credential.substring(colon + 1));
    return values;
  }

  /** The snippet's text with its placeholders filled in from {@code values}. */
  public static String text(String id, Map<String, String> values) {
    return text(page(), id, values);
  }

  /** Snippet {@code id} of {@code page} with its placeholders filled in from {@code values}. */
  public static String text(Path page, String id, Map<String, String> values) {
    String raw = all(page).get(id);
    if (raw == null) {
      throw new IllegalArgumentException("No snippet " + id + " in " + page);
    }
    Set<String> unused = new TreeSet<>(values.keySet());
    Set<String> missing = new TreeSet<>();
    Matcher m = PLACEHOLDER.matcher(raw);
    StringBuilder out = new StringBuilder();
    while (m.find()) {
      String value = values.get(m.group(1));
      if (value == null) {
        missing.add(m.group(1));
        value = m.group();
      }
      unused.remove(m.group(1));
      m.appendReplacement(out, Matcher.quoteReplacement(value));
    }
    m.appendTail(out);
    if (!missing.isEmpty() || !unused.isEmpty()) {
      throw new IllegalStateException(
          "snippet "
              + id
              + " and its test disagree: placeholders with no value "
              + missing
              + ", values the snippet no longer uses "
              + unused);
    }
    return out.toString();
  }

  /**
   * The snippet read as {@code key=value} lines, in order: blank lines and {@code #} comments
   * (whole lines, or after two spaces) are dropped. A line that is not a pair is an error.
   */
  public static Map<String, String> properties(String id, Map<String, String> values) {
    return properties(page(), id, values);
  }

  /** Snippet {@code id} of {@code page} read as {@code key=value} lines. */
  public static Map<String, String> properties(Path page, String id, Map<String, String> values) {
    Map<String, String> properties = new LinkedHashMap<>();
    for (String line : text(page, id, values).split("\n")) {
      String s = line.replaceFirst("\\s{2,}#.*$", "").strip();
      if (s.isEmpty() || s.startsWith("#")) {
        continue;
      }
      int eq = s.indexOf('=');
      if (eq <= 0) {
        throw new IllegalStateException("snippet " + id + ": not a key=value line: " + line);
      }
      if (properties.put(s.substring(0, eq).strip(), s.substring(eq + 1).strip()) != null) {
        throw new IllegalStateException("snippet " + id + ": key repeated: " + line);
      }
    }
    return properties;
  }
}
