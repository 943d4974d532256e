package dev.sluice.config;

import java.lang.reflect.RecordComponent;
import java.util.StringJoiner;

/**
 * The {@code toString} of a section holding a {@link Secret}: as a record's own, with each secret
 * shown as {@code ***} (or {@code null}), so that a config logged or printed in an error never
 * carries a password.
 */
final class Redacted {
  private Redacted() {}

  static String toString(Record section) {
    StringJoiner out = new StringJoiner(", ", section.getClass().getSimpleName() + "[", "]");
    for (RecordComponent component : section.getClass().getRecordComponents()) {
      Object value;
      try {
        value = component.getAccessor().invoke(section);
      } catch (ReflectiveOperationException e) {
        throw new IllegalStateException("Cannot read " + component.getName(), e);
      }
      boolean secret = component.isAnnotationPresent(Secret.class);
      out.add(component.getName() + "=" + (secret && value != null ? "***" : value));
    }
    return out.toString();
  }
}
