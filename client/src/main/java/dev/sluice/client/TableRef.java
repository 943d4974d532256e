package dev.sluice.client;

import static java.util.Objects.requireNonNull;

import java.util.Arrays;
import java.util.List;

/** An Iceberg table in a Sluice catalog: its namespace levels and its name. */
public record TableRef(List<String> namespace, String name) {
  public TableRef {
    namespace = List.copyOf(requireNonNull(namespace, "namespace"));
    requireNonNull(name, "name");
    if (namespace.isEmpty() || name.isEmpty()) {
      throw new IllegalArgumentException(
          "a table needs a namespace and a name, got namespace "
              + namespace
              + " name '"
              + name
              + "'");
    }
    for (String level : namespace) {
      if (level.isEmpty()) {
        throw new IllegalArgumentException("empty namespace level in " + namespace);
      }
    }
  }

  /**
   * {@code ns.table} or {@code ns1.ns2.table}: every part but the last is a namespace level (so a
   * level with a dot in its name cannot be written this way; use the constructor).
   */
  public static TableRef parse(String dotted) {
    requireNonNull(dotted, "table");
    List<String> parts = Arrays.asList(dotted.split("\\.", -1));
    if (parts.size() < 2) {
      throw new IllegalArgumentException(
          "a table is written <namespace>.<table>, got '" + dotted + "'");
    }
    return new TableRef(parts.subList(0, parts.size() - 1), parts.get(parts.size() - 1));
  }

  @Override
  public String toString() {
    return String.join(".", namespace) + "." + name;
  }
}
