package dev.sluice.store;

import java.util.Collection;
import java.util.List;

/**
 * PRINCIPAL_ACT_AS grants ({@code principal_role_delegations}): which principal roles a holder of
 * an actor principal role may act for. Both ends are principal roles; deleting either deletes the
 * grant.
 */
public interface DelegationStore {
  /**
   * Idempotent; {@link NotFound} when either role does not exist. Returns false when it was already
   * granted.
   */
  boolean grant(String actorRole, String targetRole);

  /** Returns false when it was not granted. */
  boolean revoke(String actorRole, String targetRole);

  /** The target roles granted to {@code actorRole}, by name. */
  List<String> targetsOf(String actorRole);

  /** The target roles granted to any of {@code actorRoles}, by name, each once. */
  List<String> targetsOfAny(Collection<String> actorRoles);
}
