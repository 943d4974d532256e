package dev.sluice.catalog;

import java.util.Arrays;
import java.util.EnumSet;
import java.util.Locale;
import java.util.Set;
import java.util.stream.Collectors;
import org.apache.iceberg.types.Type;
import org.apache.iceberg.types.Type.TypeID;
import org.apache.iceberg.types.Types;

/**
 * A column mask, one of the Iceberg REST spec's {@code required-column-projections} actions (the
 * read-restrictions proposal, apache/iceberg#13879), by its spec name ({@code mask-alphanum}, …),
 * with the types each applies to: the spec forbids a server to return an action for a column of a
 * type it does not list. Sluice does not offer {@code apply-expression}.
 */
public enum MaskAction {
  MASK_ALPHANUM,
  MASK_TO_FIXED_VALUE,
  REPLACE_WITH_NULL,
  SHOW_FIRST_4,
  SHOW_LAST_4,
  TRUNCATE_TO_YEAR,
  TRUNCATE_TO_MONTH,
  SHA_256_GLOBAL,
  SHA_256_QUERY_LOCAL;

  private static final Set<TypeID> STRINGS = EnumSet.of(TypeID.STRING);
  private static final Set<TypeID> TEMPORAL =
      EnumSet.of(TypeID.DATE, TypeID.TIMESTAMP, TypeID.TIMESTAMP_NANO);
  private static final Set<TypeID> HASHABLE =
      EnumSet.of(TypeID.STRING, TypeID.INTEGER, TypeID.LONG, TypeID.BINARY);

  /** Types the spec defines no fixed value for, at any depth of a nested type. */
  private static final Set<TypeID> NO_FIXED_VALUE =
      EnumSet.of(TypeID.UNKNOWN, TypeID.GEOMETRY, TypeID.GEOGRAPHY);

  /** The spec's name, e.g. {@code sha-256-global}. */
  public String spec() {
    return name().toLowerCase(Locale.ROOT).replace('_', '-');
  }

  /** The action a spec name names; IllegalArgumentException naming it and the known ones. */
  public static MaskAction fromSpec(String name) {
    for (MaskAction action : values()) {
      if (action.spec().equals(name)) {
        return action;
      }
    }
    throw new IllegalArgumentException(
        "Unknown mask action: "
            + name
            + ("apply-expression".equals(name) ? " (Sluice does not offer apply-expression)" : "")
            + "; one of "
            + Arrays.stream(values()).map(MaskAction::spec).collect(Collectors.joining(", ")));
  }

  /**
   * Whether this action may be returned for {@code field} (its type, and for nulls its being
   * optional).
   */
  public boolean appliesTo(Types.NestedField field) {
    Type type = field.type();
    return switch (this) {
      case MASK_ALPHANUM, SHOW_FIRST_4, SHOW_LAST_4 -> STRINGS.contains(type.typeId());
      case TRUNCATE_TO_YEAR, TRUNCATE_TO_MONTH -> TEMPORAL.contains(type.typeId());
      case SHA_256_GLOBAL, SHA_256_QUERY_LOCAL -> HASHABLE.contains(type.typeId());
      case REPLACE_WITH_NULL -> field.isOptional();
      case MASK_TO_FIXED_VALUE -> hasFixedValue(type);
    };
  }

  /** What {@link #appliesTo} requires, for a message. */
  public String appliesToDescription() {
    return switch (this) {
      case MASK_ALPHANUM, SHOW_FIRST_4, SHOW_LAST_4 -> "string columns";
      case TRUNCATE_TO_YEAR, TRUNCATE_TO_MONTH -> "date and timestamp columns";
      case SHA_256_GLOBAL, SHA_256_QUERY_LOCAL -> "string, int, long and binary columns";
      case REPLACE_WITH_NULL -> "optional columns";
      case MASK_TO_FIXED_VALUE -> "columns with no unknown, geometry or geography type in them";
    };
  }

  private static boolean hasFixedValue(Type type) {
    if (NO_FIXED_VALUE.contains(type.typeId())) {
      return false;
    }
    if (type.isNestedType()) {
      return type.asNestedType().fields().stream().allMatch(f -> hasFixedValue(f.type()));
    }
    return true;
  }
}
