package dev.sluice.store;

import static java.util.Objects.requireNonNull;

/**
 * What a privilege is granted on: the catalog itself, a namespace, a table or a view, by path. A
 * grant covers its securable and, for catalogs and namespaces, everything below.
 */
public record SecurableRef(Type type, NamespacePath namespace, String name) {
  public enum Type {
    CATALOG,
    NAMESPACE,
    TABLE,
    VIEW
  }

  public static final SecurableRef CATALOG = new SecurableRef(Type.CATALOG, NamespacePath.ROOT, "");

  public SecurableRef {
    requireNonNull(type, "type");
    requireNonNull(namespace, "namespace");
    requireNonNull(name, "name");
    switch (type) {
      case CATALOG -> {
        if (!namespace.isRoot() || !name.isEmpty()) {
          throw new IllegalArgumentException("A catalog securable has no namespace or name");
        }
      }
      case NAMESPACE -> {
        if (namespace.isRoot() || !name.isEmpty()) {
          throw new IllegalArgumentException("A namespace securable needs a namespace and no name");
        }
      }
      default -> {
        if (namespace.isRoot() || name.isEmpty()) {
          throw new IllegalArgumentException(
              "A " + type.name().toLowerCase() + " securable needs a namespace and a name");
        }
      }
    }
  }

  public static SecurableRef namespace(NamespacePath namespace) {
    return new SecurableRef(Type.NAMESPACE, namespace, "");
  }

  public static SecurableRef table(NamespacePath namespace, String name) {
    return new SecurableRef(Type.TABLE, namespace, name);
  }

  public static SecurableRef view(NamespacePath namespace, String name) {
    return new SecurableRef(Type.VIEW, namespace, name);
  }

  /**
   * True when a grant on this securable reaches {@code other}: itself, or anything below a catalog
   * or namespace.
   */
  public boolean covers(SecurableRef other) {
    return switch (type) {
      case CATALOG -> true;
      case NAMESPACE -> namespace.contains(other.namespace);
      case TABLE, VIEW -> equals(other);
    };
  }

  /**
   * True when this securable is {@code other} or lies below it (the reverse of {@link #covers}).
   */
  public boolean within(SecurableRef other) {
    return other.covers(this);
  }

  @Override
  public String toString() {
    return switch (type) {
      case CATALOG -> "catalog";
      case NAMESPACE -> "namespace " + namespace;
      case TABLE -> "table " + namespace + "." + name;
      case VIEW -> "view " + namespace + "." + name;
    };
  }
}
