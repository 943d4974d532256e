package dev.sluice.authz;

import static java.util.Objects.requireNonNull;

import dev.sluice.store.ContentKind;
import dev.sluice.store.SecurableRef;
import dev.sluice.store.SecurableRef.Type;
import java.util.Optional;
import java.util.Set;
import java.util.function.Supplier;
import org.apache.iceberg.exceptions.NoSuchTableException;
import org.apache.iceberg.exceptions.NoSuchViewException;

/**
 * Who may learn that a table or view does not exist, when loading or probing it. Engines probe
 * names (Trino looks up a view for every table name, Spark a table for every view name) and treat
 * 403 as fatal, so a missing object answers 404 to a caller who could already learn that the name
 * holds no such object — and to nobody else:
 *
 * <ul>
 *   <li>some grant of the caller reaches the object's securable (the catalog, its namespace or a
 *       parent, or the object itself): listing the namespace's tables (views) shows every object
 *       such a grant reaches, so its absence there already says it is missing; or
 *   <li>some grant reaches the object of the other kind with the same name, and that object exists:
 *       tables and views share names in a namespace, and the caller sees that one in its listing,
 *       so "no view (table) of that name" is nothing new.
 * </ul>
 *
 * Everyone else gets the same 403, with the same message, for an object that exists and one that
 * does not; for them nothing is looked up (the decision rests on grants alone), so neither the
 * answer nor the work done depends on existence. An object that exists is never answered 404.
 *
 * <p>A namespace's existence check follows the same idea: {@link #requireExistenceCheck}.
 */
public final class ObjectVisibility {
  /** What the audit trail says of a refusal answered 404. */
  static final String ANSWERED_MISSING = "answered 404: does not exist, and the caller may know";

  /** What the audit trail says of a namespace load answered without its properties. */
  static final String PROPERTIES_WITHHELD =
      "existence only: properties withheld (no NAMESPACE_READ_PROPERTIES)";

  private final Authorizer authz;

  public ObjectVisibility(Authorizer authz) {
    this.authz = requireNonNull(authz, "authz");
  }

  /**
   * Allows a read of {@code object} (a table or view) when the caller holds {@code privilege} on
   * it. Otherwise refuses: 404 (NoSuchTable/NoSuchView) if it is missing and the caller may know
   * (above), else 403; the decision is recorded either way.
   *
   * @param forData named in a 403 too (null: nothing more): the privilege reading the object's data
   *     takes, for a table whose catalog hands out storage access, since an engine refused a load
   *     wants to read, and {@code privilege} alone would not let it
   * @param kindAtName what holds the object's name now (a table, a view, or nothing); asked only
   *     for a caller who may learn it
   */
  public void requireRead(
      Caller caller,
      String action,
      String catalog,
      SecurableRef object,
      Privilege privilege,
      Privilege forData,
      Supplier<Optional<ContentKind>> kindAtName) {
    if (object.type() != Type.TABLE && object.type() != Type.VIEW) {
      throw new IllegalArgumentException("Not a table or view: " + object);
    }
    Set<Privilege> held = authz.effective(caller, catalog, object);
    if (held.contains(privilege)) {
      authz.record(caller, action, catalog, object.toString(), true);
      return;
    }
    SecurableRef sameName = sameNameOtherKind(object);
    boolean reachesObject = !held.isEmpty();
    boolean reachesSameName = !authz.effective(caller, catalog, sameName).isEmpty();
    if (reachesObject || reachesSameName) {
      Optional<Type> kind = kindAtName.get().map(ObjectVisibility::typeOf);
      boolean missing = kind.isEmpty() || kind.get() != object.type();
      boolean mayKnow = reachesObject || (reachesSameName && kind.isPresent());
      if (missing && mayKnow) {
        authz.record(caller, action, catalog, object.toString(), false, ANSWERED_MISSING);
        throw missing(object);
      }
    }
    authz.record(caller, action, catalog, object.toString(), false);
    throw Authorizer.refusal(
        caller,
        action,
        catalog,
        object,
        forData == null || forData == privilege
            ? privilege.name()
            : privilege + "; reading its data needs " + forData);
  }

  /**
   * Allows an existence check ({@code HEAD}) of namespace {@code ns}: NAMESPACE_READ_PROPERTIES on
   * it, or any grant that reaches it or something below it. Such a grant is exactly what shows the
   * namespace in the caller's listing of its parent, so its existence, or absence, is nothing new;
   * Trino checks the schema before {@code SHOW TABLES}, and a reader holding only TABLE_READ_DATA
   * on it must pass. Reading its properties still needs NAMESPACE_READ_PROPERTIES. Everyone else
   * gets the 403 for NAMESPACE_READ_PROPERTIES, decided on grants alone, whether or not it exists.
   */
  public void requireExistenceCheck(Caller caller, String action, String catalog, SecurableRef ns) {
    if (ns.type() != Type.NAMESPACE) {
      throw new IllegalArgumentException("Not a namespace: " + ns);
    }
    if (!authz.effective(caller, catalog, ns).contains(Privilege.NAMESPACE_READ_PROPERTIES)
        && !authz.seesAnythingAt(caller, catalog, ns)) {
      authz.require(caller, action, catalog, ns, Privilege.NAMESPACE_READ_PROPERTIES);
    }
    authz.record(caller, action, catalog, ns.toString(), true);
  }

  /**
   * Allows a namespace's load ({@code GET}): true with NAMESPACE_READ_PROPERTIES (its properties
   * too); false for a caller whose grants reach it or something below it, as for {@link
   * #requireExistenceCheck}, who learns that it exists and nothing of its properties. Iceberg's
   * Flink catalog checks a database with this GET, not HEAD, and a reader holding only
   * TABLE_READ_DATA inside must pass. Everyone else gets the 403 for NAMESPACE_READ_PROPERTIES.
   */
  public boolean requireNamespaceLoad(
      Caller caller, String action, String catalog, SecurableRef ns) {
    if (ns.type() != Type.NAMESPACE) {
      throw new IllegalArgumentException("Not a namespace: " + ns);
    }
    if (authz.effective(caller, catalog, ns).contains(Privilege.NAMESPACE_READ_PROPERTIES)) {
      authz.record(caller, action, catalog, ns.toString(), true);
      return true;
    }
    if (!authz.seesAnythingAt(caller, catalog, ns)) {
      authz.require(caller, action, catalog, ns, Privilege.NAMESPACE_READ_PROPERTIES);
    }
    authz.record(caller, action, catalog, ns.toString(), true, PROPERTIES_WITHHELD);
    return false;
  }

  private static Type typeOf(ContentKind kind) {
    return kind == ContentKind.TABLE ? Type.TABLE : Type.VIEW;
  }

  private static SecurableRef sameNameOtherKind(SecurableRef object) {
    return object.type() == Type.TABLE
        ? SecurableRef.view(object.namespace(), object.name())
        : SecurableRef.table(object.namespace(), object.name());
  }

  /** The exception, and message, a privileged caller gets from the catalog for a missing object. */
  private static RuntimeException missing(SecurableRef object) {
    String name = object.namespace() + "." + object.name();
    return object.type() == Type.TABLE
        ? new NoSuchTableException("Table does not exist: %s", name)
        : new NoSuchViewException("View does not exist: %s", name);
  }
}
