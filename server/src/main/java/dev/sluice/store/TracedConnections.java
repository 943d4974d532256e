package dev.sluice.store;

import io.opentelemetry.api.common.AttributeKey;
import io.opentelemetry.api.trace.Span;
import io.opentelemetry.api.trace.SpanKind;
import io.opentelemetry.api.trace.StatusCode;
import io.opentelemetry.api.trace.Tracer;
import io.opentelemetry.context.Scope;
import java.lang.reflect.InvocationHandler;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.lang.reflect.Proxy;
import java.sql.CallableStatement;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.Statement;
import java.util.Locale;
import java.util.Set;

/**
 * The store's connections with a client span per statement run ({@code execute*}), a child of the
 * request's span, named by the SQL's first word and table ({@code SELECT contents}): so a trace
 * shows each query a request made and how long it took. The statement's text is an attribute: the
 * store's SQL is parameterized, so it holds no value a request sent. Only when a request's span is
 * current: the store's own background work (the audit writer, the replica listener) is not traced.
 */
final class TracedConnections {
  private static final AttributeKey<String> DB_SYSTEM = AttributeKey.stringKey("db.system");
  private static final AttributeKey<String> DB_STATEMENT = AttributeKey.stringKey("db.statement");
  private static final Set<String> EXECUTE =
      Set.of("execute", "executeQuery", "executeUpdate", "executeBatch", "executeLargeUpdate");

  private TracedConnections() {}

  static Connection wrap(Connection conn, Tracer tracer, String system) {
    return (Connection)
        Proxy.newProxyInstance(
            Connection.class.getClassLoader(),
            new Class<?>[] {Connection.class},
            new OnConnection(conn, tracer, system));
  }

  private record OnConnection(Connection conn, Tracer tracer, String system)
      implements InvocationHandler {
    @Override
    public Object invoke(Object proxy, Method method, Object[] args) throws Throwable {
      Object out = call(conn, method, args);
      if (out instanceof Statement statement && Span.current().getSpanContext().isValid()) {
        String sql =
            method.getName().startsWith("prepare") && args != null && args[0] instanceof String s
                ? s
                : null;
        Class<?> type =
            out instanceof PreparedStatement ? PreparedStatement.class : Statement.class;
        if (out instanceof CallableStatement) {
          type = CallableStatement.class;
        }
        return Proxy.newProxyInstance(
            Statement.class.getClassLoader(),
            new Class<?>[] {type},
            new OnStatement(statement, tracer, system, sql));
      }
      return out;
    }
  }

  private record OnStatement(Statement statement, Tracer tracer, String system, String prepared)
      implements InvocationHandler {
    @Override
    public Object invoke(Object proxy, Method method, Object[] args) throws Throwable {
      if (!EXECUTE.contains(method.getName())) {
        return call(statement, method, args);
      }
      String sql =
          prepared != null ? prepared : args != null && args[0] instanceof String s ? s : "";
      Span span =
          tracer
              .spanBuilder(name(sql))
              .setSpanKind(SpanKind.CLIENT)
              .setAttribute(DB_SYSTEM, system)
              .setAttribute(DB_STATEMENT, sql)
              .startSpan();
      try (Scope ignored = span.makeCurrent()) {
        return call(statement, method, args);
      } catch (Throwable t) {
        span.setStatus(StatusCode.ERROR, t.getClass().getSimpleName());
        throw t;
      } finally {
        span.end();
      }
    }
  }

  /**
   * {@code SELECT contents}: the statement's first word and the table after FROM, INTO or UPDATE.
   */
  static String name(String sql) {
    String[] words = sql.trim().split("\\s+");
    if (words.length == 0 || words[0].isEmpty()) {
      return "db";
    }
    String verb = words[0].toUpperCase(Locale.ROOT);
    for (int i = 0; i < words.length - 1; i++) {
      String w = words[i].toUpperCase(Locale.ROOT);
      if (w.equals("FROM") || w.equals("INTO") || (w.equals("UPDATE") && i == 0)) {
        return verb + " " + words[i + 1].replaceAll("[^A-Za-z0-9_].*", "");
      }
    }
    return verb;
  }

  private static Object call(Object target, Method method, Object[] args) throws Throwable {
    try {
      return method.invoke(target, args);
    } catch (InvocationTargetException e) {
      throw e.getCause();
    }
  }
}
