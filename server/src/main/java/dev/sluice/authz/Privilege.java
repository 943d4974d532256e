package dev.sluice.authz;

import java.util.Collections;
import java.util.EnumSet;
import java.util.Locale;
import java.util.Set;
import org.apache.iceberg.exceptions.BadRequestException;

/**
 * The privileges a catalog role can hold, with what each implies. The implications are the whole
 * model (see docs/AUTHORIZATION.md for the table):
 *
 * <ul>
 *   <li>TABLE_WRITE_DATA ⇒ TABLE_READ_DATA ⇒ TABLE_READ_PROPERTIES; TABLE_WRITE_DATA ⇒
 *       TABLE_WRITE_PROPERTIES (a writer commits snapshots with whatever metadata they carry);
 *       *_WRITE_PROPERTIES ⇒ *_READ_PROPERTIES.
 *   <li>*_FULL_METADATA ⇒ create, drop, list, read and write properties of that kind (not data).
 *   <li>CATALOG_MANAGE_METADATA ⇒ every *_FULL_METADATA and the catalog's properties.
 *   <li>CATALOG_MANAGE_CONTENT ⇒ every content privilege, data included.
 *   <li>CATALOG_MANAGE_ACCESS (catalog roles and grants) implies no content privilege.
 * </ul>
 */
public enum Privilege {
  CATALOG_MANAGE_ACCESS,
  CATALOG_MANAGE_CONTENT,
  CATALOG_MANAGE_METADATA,
  CATALOG_READ_PROPERTIES,
  CATALOG_WRITE_PROPERTIES,
  NAMESPACE_CREATE,
  NAMESPACE_DROP,
  NAMESPACE_LIST,
  NAMESPACE_READ_PROPERTIES,
  NAMESPACE_WRITE_PROPERTIES,
  NAMESPACE_FULL_METADATA,
  TABLE_CREATE,
  TABLE_DROP,
  TABLE_LIST,
  TABLE_READ_PROPERTIES,
  TABLE_WRITE_PROPERTIES,
  TABLE_READ_DATA,
  TABLE_WRITE_DATA,
  TABLE_FULL_METADATA,
  VIEW_CREATE,
  VIEW_DROP,
  VIEW_LIST,
  VIEW_READ_PROPERTIES,
  VIEW_WRITE_PROPERTIES,
  VIEW_FULL_METADATA;

  private Set<Privilege> closure;

  static {
    for (Privilege p : values()) {
      EnumSet<Privilege> all = EnumSet.of(p);
      boolean grew = true;
      while (grew) {
        grew = false;
        for (Privilege q : EnumSet.copyOf(all)) {
          grew |= all.addAll(direct(q));
        }
      }
      p.closure = Collections.unmodifiableSet(all);
    }
  }

  private static Set<Privilege> direct(Privilege p) {
    return switch (p) {
      case TABLE_WRITE_DATA -> EnumSet.of(TABLE_READ_DATA, TABLE_WRITE_PROPERTIES);
      case TABLE_READ_DATA -> EnumSet.of(TABLE_READ_PROPERTIES);
      case TABLE_WRITE_PROPERTIES -> EnumSet.of(TABLE_READ_PROPERTIES);
      case NAMESPACE_WRITE_PROPERTIES -> EnumSet.of(NAMESPACE_READ_PROPERTIES);
      case VIEW_WRITE_PROPERTIES -> EnumSet.of(VIEW_READ_PROPERTIES);
      case CATALOG_WRITE_PROPERTIES -> EnumSet.of(CATALOG_READ_PROPERTIES);
      case TABLE_FULL_METADATA ->
          EnumSet.of(TABLE_CREATE, TABLE_DROP, TABLE_LIST, TABLE_WRITE_PROPERTIES);
      case VIEW_FULL_METADATA ->
          EnumSet.of(VIEW_CREATE, VIEW_DROP, VIEW_LIST, VIEW_WRITE_PROPERTIES);
      case NAMESPACE_FULL_METADATA ->
          EnumSet.of(NAMESPACE_CREATE, NAMESPACE_DROP, NAMESPACE_LIST, NAMESPACE_WRITE_PROPERTIES);
      case CATALOG_MANAGE_METADATA ->
          EnumSet.of(
              NAMESPACE_FULL_METADATA,
              TABLE_FULL_METADATA,
              VIEW_FULL_METADATA,
              CATALOG_WRITE_PROPERTIES);
      case CATALOG_MANAGE_CONTENT -> EnumSet.of(CATALOG_MANAGE_METADATA, TABLE_WRITE_DATA);
      default -> EnumSet.noneOf(Privilege.class);
    };
  }

  /** This privilege and everything it implies. */
  public Set<Privilege> implied() {
    return closure;
  }

  /** Parses a privilege name (case-insensitive); a 400 naming the value otherwise. */
  public static Privilege parse(String name) {
    try {
      return valueOf(name.trim().toUpperCase(Locale.ROOT));
    } catch (IllegalArgumentException | NullPointerException e) {
      throw new BadRequestException(
          "Unknown privilege: %s (one of %s)",
          String.valueOf(name), java.util.Arrays.stream(values()).map(Enum::name).toList());
    }
  }
}
