package dev.sluice.store;

import java.util.List;
import java.util.Objects;

/** A namespace as the store keys it: its levels joined with U+001F. */
public record NamespacePath(List<String> levels) {
  public static final char SEPARATOR = '\u001f';
  public static final NamespacePath ROOT = new NamespacePath(List.of());

  public NamespacePath {
    levels = List.copyOf(Objects.requireNonNull(levels, "levels"));
  }

  public static NamespacePath of(String... levels) {
    return new NamespacePath(List.of(levels));
  }

  public static NamespacePath fromKey(String key) {
    return key.isEmpty()
        ? ROOT
        : new NamespacePath(List.of(key.split(String.valueOf(SEPARATOR), -1)));
  }

  public String key() {
    return String.join(String.valueOf(SEPARATOR), levels);
  }

  public boolean isRoot() {
    return levels.isEmpty();
  }

  /** True when {@code other} is this namespace or lies below it. */
  public boolean contains(NamespacePath other) {
    int n = levels.size();
    if (other.levels.size() < n) {
      return false;
    }
    // Indexed: authorization asks this for every grant of every request.
    for (int i = 0; i < n; i++) {
      if (!levels.get(i).equals(other.levels.get(i))) {
        return false;
      }
    }
    return true;
  }

  public NamespacePath parent() {
    return levels.isEmpty() ? ROOT : new NamespacePath(levels.subList(0, levels.size() - 1));
  }

  @Override
  public String toString() {
    return String.join(".", levels);
  }
}
