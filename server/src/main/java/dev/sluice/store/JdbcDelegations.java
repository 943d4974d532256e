package dev.sluice.store;

import com.zaxxer.hikari.HikariDataSource;
import java.util.Collection;
import java.util.Collections;
import java.util.List;

/** The SQL of PRINCIPAL_ACT_AS grants for {@link JdbcStore}. */
final class JdbcDelegations extends JdbcSupport implements DelegationStore {
  JdbcDelegations(HikariDataSource dataSource, StoreConnections connections) {
    super(dataSource, connections);
  }

  @Override
  public boolean grant(String actorRole, String targetRole) {
    return inTransaction(
        conn -> {
          for (String role : List.of(actorRole, targetRole)) {
            if (!exists(conn, "SELECT 1 FROM principal_roles WHERE name = ?", role)) {
              throw new NotFound("Principal role does not exist: " + role);
            }
          }
          if (exists(
              conn,
              "SELECT 1 FROM principal_role_delegations WHERE actor_role = ? AND target_role = ?",
              actorRole,
              targetRole)) {
            return false;
          }
          update(
              conn,
              "INSERT INTO principal_role_delegations (actor_role, target_role, created_at)"
                  + " VALUES (?, ?, ?)",
              actorRole,
              targetRole,
              System.currentTimeMillis());
          return true;
        });
  }

  @Override
  public boolean revoke(String actorRole, String targetRole) {
    return inTransaction(
        conn ->
            update(
                    conn,
                    "DELETE FROM principal_role_delegations WHERE actor_role = ? AND target_role = ?",
                    actorRole,
                    targetRole)
                == 1);
  }

  @Override
  public List<String> targetsOf(String actorRole) {
    return queryList(
        "SELECT target_role FROM principal_role_delegations WHERE actor_role = ?"
            + " ORDER BY target_role",
        rs -> rs.getString(1),
        actorRole);
  }

  @Override
  public List<String> targetsOfAny(Collection<String> actorRoles) {
    if (actorRoles.isEmpty()) {
      return List.of();
    }
    String marks = String.join(", ", Collections.nCopies(actorRoles.size(), "?"));
    return queryList(
        "SELECT DISTINCT target_role FROM principal_role_delegations WHERE actor_role IN ("
            + marks
            + ") ORDER BY target_role",
        rs -> rs.getString(1),
        actorRoles.toArray());
  }
}
