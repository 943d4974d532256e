package dev.sluice.store;

import com.zaxxer.hikari.HikariDataSource;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Types;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;

/** The SQL of audit events ({@code audit_events}) for {@link JdbcAccessStore}. */
final class JdbcAuditEvents extends JdbcSupport {
  private static final String COLUMNS =
      "event_time, principal, roles, action, catalog_name, securable, decision, request_id,"
          + " decision_count, last_event_time, detail, principal_identity, client_address,"
          + " user_agent, http_status, error_type, trace_id, actor";

  /** Where {@code http_status} is bound in the insert (1-based). */
  private static final int STATUS_PARAMETER = 15;

  JdbcAuditEvents(HikariDataSource dataSource, StoreConnections connections) {
    super(dataSource, connections);
  }

  /** {@link AccessStore#appendEvents}. */
  void append(List<AuditEvent> events) {
    if (events.isEmpty()) {
      return;
    }
    try {
      insert(events);
    } catch (StoreUnavailable e) {
      // The audit writer retries an outage but must not retry rows the database refuses.
      if (e.getCause() instanceof SQLException sql && !outage(sql)) {
        throw new RowsRefused(
            "The database refused audit events (SQLState " + sql.getSQLState() + ")", sql);
      }
      throw e;
    }
  }

  private void insert(List<AuditEvent> events) {
    String marks = String.join(", ", Collections.nCopies(COLUMNS.split(",").length, "?"));
    inTransaction(
        conn -> {
          try (PreparedStatement ps =
              conn.prepareStatement(
                  "INSERT INTO audit_events (" + COLUMNS + ") VALUES (" + marks + ")")) {
            for (AuditEvent e : events) {
              bind(
                  ps,
                  e.time(),
                  e.principal(),
                  String.join(",", e.roles()),
                  e.action(),
                  e.catalog(),
                  e.securable(),
                  e.allowed() ? "ALLOW" : "DENY",
                  e.requestId(),
                  e.count(),
                  e.lastTime(),
                  e.detail(),
                  e.principalIdentity(),
                  e.request().clientAddress(),
                  e.request().userAgent(),
                  e.request().status(),
                  e.request().errorType(),
                  e.request().traceId(),
                  e.actor());
              if (e.request().status() == null) {
                // bind's null is a VARCHAR, which PostgreSQL refuses for an integer column
                ps.setNull(STATUS_PARAMETER, Types.INTEGER);
              }
              ps.addBatch();
            }
            ps.executeBatch();
          }
          return null;
        });
  }

  /** {@link AccessStore#events}. */
  Page<AuditEvent> events(AuditFilter f, PageRequest page) {
    StringBuilder sql =
        new StringBuilder("SELECT id, " + COLUMNS + " FROM audit_events WHERE 1 = 1");
    List<Object> args = new ArrayList<>();
    addFilter(sql, args, "principal = ?", f.principal());
    addFilter(sql, args, "actor = ?", f.actor());
    addFilter(sql, args, "catalog_name = ?", f.catalog());
    addFilter(sql, args, "securable = ?", f.securable());
    addFilter(
        sql, args, "decision = ?", f.allowed() == null ? null : (f.allowed() ? "ALLOW" : "DENY"));
    addFilter(sql, args, "event_time >= ?", f.from());
    addFilter(sql, args, "event_time <= ?", f.to());
    if (f.catalogsVisible() != null) {
      if (f.catalogsVisible().isEmpty()) {
        return new Page<>(List.of(), null);
      }
      sql.append(" AND catalog_name IN (")
          .append(String.join(", ", Collections.nCopies(f.catalogsVisible().size(), "?")))
          .append(")");
      args.addAll(f.catalogsVisible());
    }
    Long afterId = page.afterId();
    if (afterId != null) {
      args.add(afterId);
      sql.append(" AND id < ?");
    }
    sql.append(" ORDER BY id DESC");
    boolean bounded = page.bounded();
    if (bounded) {
      sql.append(" FETCH FIRST ").append(page.size() + 1).append(" ROWS ONLY");
    }
    List<AuditEvent> rows = queryList(sql.toString(), JdbcAuditEvents::row, args.toArray());
    if (bounded && rows.size() > page.size()) {
      List<AuditEvent> items = rows.subList(0, page.size());
      return new Page<>(
          items, PageRequest.tokenFor(Long.toString(items.get(items.size() - 1).id())));
    }
    return new Page<>(rows, null);
  }

  /** {@link AccessStore#deleteEventsBefore}. */
  int deleteBefore(long time, int limit) {
    // In bounded batches, so retention never holds one long transaction over the audit table.
    try (Connection conn = connection()) {
      return update(
          conn,
          "DELETE FROM audit_events WHERE id IN (SELECT id FROM audit_events WHERE event_time < ?"
              + " ORDER BY event_time FETCH FIRST "
              + limit
              + " ROWS ONLY)",
          time);
    } catch (SQLException e) {
      throw unavailable(e);
    }
  }

  private static void addFilter(StringBuilder sql, List<Object> args, String clause, Object value) {
    if (value != null) {
      sql.append(" AND ").append(clause);
      args.add(value);
    }
  }

  private static AuditEvent row(ResultSet rs) throws SQLException {
    String roles = rs.getString(4);
    return new AuditEvent(
        rs.getLong(1),
        rs.getLong(2),
        rs.getString(3),
        roles.isEmpty() ? List.of() : List.of(roles.split(",")),
        rs.getString(5),
        rs.getString(6),
        rs.getString(7),
        "ALLOW".equals(rs.getString(8)),
        rs.getString(9),
        rs.getInt(10),
        rs.getObject(11) == null ? rs.getLong(2) : rs.getLong(11),
        rs.getString(12),
        rs.getString(13),
        new AuditedRequest(
            rs.getString(14),
            rs.getString(15),
            rs.getObject(16) == null ? null : rs.getInt(16),
            rs.getString(17),
            rs.getString(18)),
        rs.getString(19));
  }
}
