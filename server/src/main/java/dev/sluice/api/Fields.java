package dev.sluice.api;

import java.util.List;
import java.util.Map;

/** Checks the records' constructors share: each error names the field, as the API answers it. */
final class Fields {
  private Fields() {}

  static String nonEmpty(String value, String field) {
    if (value == null || value.isEmpty()) {
      throw new IllegalArgumentException("Missing field: " + field + " (a non-empty string)");
    }
    return value;
  }

  static <K, V> Map<K, V> copy(Map<K, V> map) {
    return map == null ? Map.of() : Map.copyOf(map);
  }

  static <T> List<T> copy(List<T> list) {
    return list == null ? List.of() : List.copyOf(list);
  }

  static <T> List<T> copyOrNull(List<T> list) {
    return list == null ? null : List.copyOf(list);
  }
}
