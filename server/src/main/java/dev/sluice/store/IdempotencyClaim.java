package dev.sluice.store;

import static java.util.Objects.requireNonNull;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Types;

/**
 * The {@code Idempotency-Key} of one request. The request's view of the store ({@link
 * Store#claiming}) records it in the transaction of the mutation it makes ({@link #recordIn}), so
 * the key says "applied" exactly when the change is: a retry either finds the row or may run again.
 * Passed with the store the request uses, never held by a thread: whatever runs the change (on any
 * thread) records exactly the claim of the request it runs for.
 */
public record IdempotencyClaim(
    String key,
    String principal,
    String principalIdentity,
    String catalog,
    String operation,
    String requestHash,
    String attempt,
    long createdAt,
    long expiresAt) {
  public IdempotencyClaim {
    requireNonNull(key, "key");
    requireNonNull(principal, "principal");
    requireNonNull(principalIdentity, "principalIdentity");
    requireNonNull(catalog, "catalog");
    requireNonNull(operation, "operation");
    requireNonNull(requestHash, "requestHash");
    requireNonNull(attempt, "attempt");
  }

  /**
   * Inside a mutation's transaction: writes {@code claim}'s key (answer still unrecorded), unless
   * its request already did in an earlier transaction of its own; nothing when {@code claim} is
   * null (a request without a key). Throws {@link IdempotencyKeyTaken} when another request holds
   * the key; the caller's transaction then rolls back, so the change is not applied twice.
   */
  static void recordIn(IdempotencyClaim claim, Connection conn) throws SQLException {
    if (claim == null) {
      return;
    }
    try (PreparedStatement ps =
        conn.prepareStatement("SELECT attempt FROM idempotency_keys WHERE idem_key = ?")) {
      ps.setString(1, claim.key);
      try (ResultSet rs = ps.executeQuery()) {
        if (rs.next()) {
          if (claim.attempt.equals(rs.getString(1))) {
            return; // an earlier transaction of this same request recorded it
          }
          throw new IdempotencyKeyTaken(claim.key);
        }
      }
    }
    try {
      claim.insert(conn, null, null);
    } catch (SQLException e) {
      if (JdbcSupport.UNIQUE_VIOLATION.equals(e.getSQLState())) {
        // A concurrent request with the same key committed first (PostgreSQL made us wait).
        throw new IdempotencyKeyTaken(claim.key);
      }
      throw e;
    }
  }

  void insert(Connection conn, Integer status, String body) throws SQLException {
    try (PreparedStatement ps =
        conn.prepareStatement(
            "INSERT INTO idempotency_keys (idem_key, principal_name, catalog_name, operation,"
                + " request_hash, attempt, status, response_body, created_at, expires_at,"
                + " principal_identity) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)")) {
      ps.setString(1, key);
      ps.setString(2, principal);
      ps.setString(3, catalog);
      ps.setString(4, operation);
      ps.setString(5, requestHash);
      ps.setString(6, attempt);
      if (status == null) {
        ps.setNull(7, Types.INTEGER);
      } else {
        ps.setInt(7, status);
      }
      ps.setString(8, body);
      ps.setLong(9, createdAt);
      ps.setLong(10, expiresAt);
      ps.setString(11, principalIdentity);
      ps.executeUpdate();
    }
  }
}
