package dev.sluice.store;

import com.zaxxer.hikari.HikariDataSource;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.Optional;

/** {@link IdempotencyKeys} in the {@code idempotency_keys} table (Flyway V7). */
final class JdbcIdempotencyKeys extends JdbcSupport implements IdempotencyKeys {
  JdbcIdempotencyKeys(HikariDataSource dataSource, StoreConnections connections) {
    super(dataSource, connections);
  }

  @Override
  public Optional<IdempotencyRecord> find(String key) {
    return queryOne(
        "SELECT idem_key, principal_name, catalog_name, operation, request_hash, attempt, status,"
            + " response_body, created_at, expires_at, principal_identity FROM idempotency_keys"
            + " WHERE idem_key = ?",
        JdbcIdempotencyKeys::row,
        key);
  }

  private static IdempotencyRecord row(ResultSet rs) throws SQLException {
    int code = rs.getInt(7);
    Integer status = rs.wasNull() ? null : code; // right after the read it refers to
    return new IdempotencyRecord(
        rs.getString(1),
        rs.getString(2),
        rs.getString(11),
        rs.getString(3),
        rs.getString(4),
        rs.getString(5),
        rs.getString(6),
        status,
        rs.getString(8),
        rs.getLong(9),
        rs.getLong(10));
  }

  @Override
  public boolean answer(IdempotencyClaim claim, int status, String body) {
    return inTransaction(
        conn -> {
          try (PreparedStatement ps =
              conn.prepareStatement(
                  "UPDATE idempotency_keys SET status = ?, response_body = ?"
                      + " WHERE idem_key = ? AND attempt = ? AND status IS NULL")) {
            ps.setInt(1, status);
            ps.setString(2, body);
            ps.setString(3, claim.key());
            ps.setString(4, claim.attempt());
            if (ps.executeUpdate() == 1) {
              return true;
            }
          }
          return insertAnswered(conn, claim, status, body);
        });
  }

  /** The request wrote no row of its own: one with its answer, unless the key is held. */
  private static boolean insertAnswered(
      Connection conn, IdempotencyClaim claim, int status, String body) throws SQLException {
    if (exists(conn, "SELECT 1 FROM idempotency_keys WHERE idem_key = ?", claim.key())) {
      return false;
    }
    try {
      claim.insert(conn, status, body);
      return true;
    } catch (SQLException e) {
      if (UNIQUE_VIOLATION.equals(e.getSQLState())) {
        throw new IdempotencyKeyTaken(claim.key());
      }
      throw e;
    }
  }

  @Override
  public void forget(IdempotencyClaim claim) {
    inTransaction(
        conn ->
            update(
                conn,
                "DELETE FROM idempotency_keys WHERE idem_key = ? AND attempt = ?",
                claim.key(),
                claim.attempt()));
  }

  @Override
  public boolean removeIfExpired(String key, long nowMs) {
    return inTransaction(
            conn ->
                update(
                    conn,
                    "DELETE FROM idempotency_keys WHERE idem_key = ? AND expires_at <= ?",
                    key,
                    nowMs))
        > 0;
  }

  @Override
  public int sweep(long nowMs) {
    return inTransaction(
        conn -> update(conn, "DELETE FROM idempotency_keys WHERE expires_at <= ?", nowMs));
  }
}
