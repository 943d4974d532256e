package dev.sluice.catalog;

import java.util.List;
import org.apache.iceberg.catalog.Namespace;
import org.apache.iceberg.catalog.TableIdentifier;
import org.apache.iceberg.exceptions.BadRequestException;

/**
 * What a catalog, namespace, table or view name may be: non-empty, bounded, no control characters.
 */
public final class IdentifierRules {
  public static final int MAX_NAME_LENGTH = 256;
  public static final int MAX_NAMESPACE_DEPTH = 16;

  private IdentifierRules() {}

  public static void checkName(String what, String name) {
    if (name == null || name.isEmpty()) {
      throw new BadRequestException("Invalid %s: must not be empty", what);
    }
    if (name.length() > MAX_NAME_LENGTH) {
      throw new BadRequestException("Invalid %s: longer than %d characters", what, MAX_NAME_LENGTH);
    }
    for (int i = 0; i < name.length(); i++) {
      if (Character.isISOControl(name.charAt(i))) {
        throw new BadRequestException(
            "Invalid %s: contains a control character at position %d", what, i);
      }
    }
  }

  public static void checkNamespace(Namespace namespace) {
    if (namespace.isEmpty()) {
      throw new BadRequestException("Invalid namespace: must not be empty");
    }
    checkLevels(List.of(namespace.levels()));
  }

  public static void checkLevels(List<String> levels) {
    if (levels.size() > MAX_NAMESPACE_DEPTH) {
      throw new BadRequestException(
          "Invalid namespace: deeper than %d levels", MAX_NAMESPACE_DEPTH);
    }
    for (String level : levels) {
      checkName("namespace level", level);
    }
  }

  public static void checkIdentifier(TableIdentifier identifier) {
    checkNamespace(identifier.namespace());
    checkName("name", identifier.name());
  }
}
