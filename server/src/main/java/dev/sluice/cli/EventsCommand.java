package dev.sluice.cli;

import dev.sluice.api.Event;
import dev.sluice.api.Events;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.time.LocalDate;
import java.time.ZoneOffset;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.StringJoiner;
import picocli.CommandLine.Command;
import picocli.CommandLine.ITypeConverter;
import picocli.CommandLine.Option;
import picocli.CommandLine.TypeConversionException;

/** {@code sluice events list}: the audit trail, newest first, filtered as the API filters it. */
@Command(
    name = "events",
    description = "Read the audit trail.",
    subcommands = {EventsCommand.ListEvents.class})
public final class EventsCommand extends CommandGroup {

  @Command(
      name = "list",
      description =
          "List audit events, newest first (the service admin sees all; others, the"
              + " catalogs whose access they manage).")
  static final class ListEvents extends AdminCommand {
    @Option(names = "--principal", paramLabel = "NAME", description = "Only this principal's")
    String principal;

    @Option(
        names = "--actor",
        paramLabel = "NAME",
        description = "Only calls this engine principal made for others (delegated tokens)")
    String actor;

    @Option(names = "--catalog", paramLabel = "CATALOG", description = "Only this catalog's")
    String catalog;

    @Option(
        names = "--securable",
        paramLabel = "NAME",
        description = "Only on this securable (as events name it, e.g. sales.orders)")
    String securable;

    @Option(
        names = "--decision",
        paramLabel = "ALLOW|DENY",
        description = "Only allowed or only denied calls")
    String decision;

    @Option(
        names = "--from",
        paramLabel = "TIME",
        converter = Time.class,
        description = "Not before: 2025-01-31T12:00:00Z, 2025-01-31 (UTC midnight) or epoch ms")
    Long from;

    @Option(
        names = "--to",
        paramLabel = "TIME",
        converter = Time.class,
        description = "Not after; same forms as --from")
    Long to;

    @Option(
        names = "--limit",
        paramLabel = "N",
        defaultValue = "100",
        description = "At most N events, following pages as needed (default 100; 0: all)")
    int limit;

    @Override
    void run(ManagementClient client, Console console) {
      Map<String, Object> filters = new LinkedHashMap<>();
      filters.put("principal", principal);
      filters.put("actor", actor);
      filters.put("catalog", catalog);
      filters.put("securable", securable);
      filters.put("decision", decision == null ? null : decision.toUpperCase(Locale.ROOT));
      filters.put("from", from);
      filters.put("to", to);
      StringJoiner query = new StringJoiner("&", "?", "").setEmptyValue("");
      filters.forEach(
          (key, value) -> {
            if (value != null) {
              query.add(key + "=" + URLEncoder.encode(value.toString(), StandardCharsets.UTF_8));
            }
          });
      console.show(
          client.listAll(ApiPath.of("events") + query, Events.class, Math.max(limit, 0)),
          (out, events) -> {
            // The ACTOR column only when an engine acted for someone: the common trail stays as
            // it was.
            boolean acted = events.stream().anyMatch(e -> e.actor() != null);
            List<String> headers =
                new ArrayList<>(
                    List.of("TIME", "PRINCIPAL", "ACTION", "CATALOG", "SECURABLE", "DECISION"));
            if (acted) {
              headers.add(2, "ACTOR");
            }
            TextTable table = new TextTable(headers.toArray(String[]::new));
            for (Event event : events) {
              List<String> row =
                  new ArrayList<>(
                      List.of(
                          Instant.ofEpochMilli(event.timestamp()).toString(),
                          Objects.toString(event.principal(), ""),
                          Objects.toString(event.action(), ""),
                          Objects.toString(event.catalog(), ""),
                          Objects.toString(event.securable(), ""),
                          Objects.toString(event.decision(), "")));
              if (acted) {
                row.add(2, Objects.toString(event.actor(), ""));
              }
              table.row(row.toArray(String[]::new));
            }
            Lists.print(out, table, "no events");
          });
    }
  }

  /** An instant, a UTC date or epoch milliseconds, as the API's epoch milliseconds. */
  static final class Time implements ITypeConverter<Long> {
    @Override
    public Long convert(String value) {
      String v = value.trim();
      if (v.matches("\\d+")) {
        return Long.parseLong(v);
      }
      try {
        return Instant.parse(v).toEpochMilli();
      } catch (DateTimeParseException e) {
        // a date, below
      }
      try {
        return LocalDate.parse(v).atStartOfDay(ZoneOffset.UTC).toInstant().toEpochMilli();
      } catch (DateTimeParseException e) {
        throw new TypeConversionException(
            "'"
                + value
                + "' is not a time: expected 2025-01-31T12:00:00Z, 2025-01-31 or epoch"
                + " milliseconds");
      }
    }
  }
}
