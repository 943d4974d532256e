package dev.sluice.api;

import java.util.List;

/**
 * {@code GET …/effective-privileges}: the privileges a principal holds on one securable, each with
 * the principal role → catalog role → grant that gives it.
 */
public record EffectivePrivileges(
    String principal, String catalog, Securable securable, List<HeldPrivilege> privileges) {
  public EffectivePrivileges {
    privileges = Fields.copy(privileges);
  }

  /** A securable: {@code name} is null for a catalog or namespace. */
  public record Securable(String type, List<String> namespace, String name) {
    public Securable {
      namespace = Fields.copy(namespace);
    }
  }

  /** One privilege held, and every path that gives it. */
  public record HeldPrivilege(String privilege, List<PrivilegePath> via) {
    public HeldPrivilege {
      via = Fields.copy(via);
    }
  }

  /** One path: the principal role that holds the catalog role that has the grant. */
  public record PrivilegePath(String principalRole, String catalogRole, Grant grant) {}
}
