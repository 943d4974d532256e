package dev.sluice.cli;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/** What {@code sluice catalogs import} did with each object, and the summary line. */
final class ImportReport {
  /** One object's outcome. */
  enum Outcome {
    CREATED("created"),
    EXISTS("exists"),
    WOULD_CREATE("would create"),
    REGISTERED("registered"),
    WOULD_REGISTER("would register"),
    UNCHANGED("unchanged"),
    SKIPPED("skipped"),
    FAILED("failed");

    final String text;

    Outcome(String text) {
      this.text = text;
    }
  }

  /** A namespace, table or view ({@code kind}) and what became of it. */
  record Entry(String kind, String name, Outcome outcome, String reason, String metadataLocation) {
    String line() {
      return kind + " " + name + ": " + outcome.text + (reason == null ? "" : ": " + reason);
    }
  }

  private final List<Entry> entries = new ArrayList<>();
  private final Map<Outcome, Integer> counts = new EnumMap<>(Outcome.class);

  void add(Entry entry) {
    entries.add(entry);
    if (!entry.kind().equals("namespace")) {
      counts.merge(entry.outcome(), 1, Integer::sum);
    }
  }

  int count(Outcome outcome) {
    return counts.getOrDefault(outcome, 0);
  }

  /** Whether every table and view is registered (or would be) or unchanged. */
  boolean clean() {
    return count(Outcome.SKIPPED) == 0
        && count(Outcome.FAILED) == 0
        && entries.stream().noneMatch(e -> e.outcome() == Outcome.SKIPPED);
  }

  String summary(int tables, int views) {
    StringBuilder line =
        new StringBuilder().append(tables).append(" tables, ").append(views).append(" views: ");
    List<String> parts = new ArrayList<>();
    for (Outcome outcome :
        List.of(
            Outcome.REGISTERED,
            Outcome.WOULD_REGISTER,
            Outcome.UNCHANGED,
            Outcome.SKIPPED,
            Outcome.FAILED)) {
      if (count(outcome) > 0 || outcome == Outcome.SKIPPED || outcome == Outcome.UNCHANGED) {
        parts.add(count(outcome) + " " + outcome.text);
      }
    }
    return line.append(String.join(", ", parts)).toString();
  }

  /** The json-mode document: every entry and the counts. */
  JsonNode document(String source, String target, boolean dryRun) {
    ObjectNode document = Bodies.object().put("source", source).put("target", target);
    document.put("dryRun", dryRun);
    ArrayNode objects = document.putArray("objects");
    for (Entry entry : entries) {
      ObjectNode object = objects.addObject().put("kind", entry.kind()).put("name", entry.name());
      object.put("outcome", entry.outcome().name().toLowerCase(Locale.ROOT));
      if (entry.reason() != null) {
        object.put("reason", entry.reason());
      }
      if (entry.metadataLocation() != null) {
        object.put("metadataLocation", entry.metadataLocation());
      }
    }
    ObjectNode summary = document.putObject("summary");
    for (Outcome outcome :
        List.of(
            Outcome.REGISTERED,
            Outcome.WOULD_REGISTER,
            Outcome.UNCHANGED,
            Outcome.SKIPPED,
            Outcome.FAILED)) {
      summary.put(outcome.name().toLowerCase(Locale.ROOT), count(outcome));
    }
    return document;
  }
}
