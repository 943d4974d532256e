package dev.sluice.api;

import java.util.Collections;
import java.util.LinkedHashMap;
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

  /** An unmodifiable copy that keeps the order it was given in (properties read as written). */
  static <K, V> Map<K, V> copy(Map<K, V> map) {
    return map == null ? Map.of() : Collections.unmodifiableMap(new LinkedHashMap<>(map));
  }

  static <T> List<T> copy(List<T> list) {
    return list == null ? List.of() : List.copyOf(list);
  }

  static <T> List<T> copyOrNull(List<T> list) {
    return list == null ? null : List.copyOf(list);
  }
}
