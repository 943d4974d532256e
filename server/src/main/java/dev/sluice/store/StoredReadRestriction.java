package dev.sluice.store;

import static java.util.Objects.requireNonNull;

import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * A read restriction on one table for one principal role, as stored: {@code rowFilterJson} is
 * Iceberg ExpressionParser JSON whose references are field ids (null: no row filter); {@code
 * hiddenFieldIds} the columns removed from the schema the role is shown; {@code maskedFieldIds}
 * field id to the spec's action name (e.g. {@code mask-alphanum}). The store keeps them as given:
 * what they mean is {@code dev.sluice.catalog}'s.
 */
public record StoredReadRestriction(
    String catalog,
    NamespacePath namespace,
    String table,
    String principalRole,
    String rowFilterJson,
    List<Integer> hiddenFieldIds,
    Map<Integer, String> maskedFieldIds) {
  public StoredReadRestriction {
    requireNonNull(catalog, "catalog");
    requireNonNull(namespace, "namespace");
    requireNonNull(table, "table");
    requireNonNull(principalRole, "principalRole");
    hiddenFieldIds = List.copyOf(hiddenFieldIds).stream().sorted().distinct().toList();
    maskedFieldIds =
        java.util.Collections.unmodifiableMap(new TreeMap<>(requireNonNull(maskedFieldIds)));
  }
}
