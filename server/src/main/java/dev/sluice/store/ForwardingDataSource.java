package dev.sluice.store;

import static java.util.Objects.requireNonNull;

import java.io.PrintWriter;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.SQLFeatureNotSupportedException;
import java.util.logging.Logger;
import javax.sql.DataSource;

/**
 * A DataSource that hands out connections its own way ({@link #getConnection()}) and forwards the
 * rest to {@code delegate}. Credentials are the delegate's own: asking with others is refused.
 */
abstract class ForwardingDataSource implements DataSource {
  private final DataSource delegate;

  ForwardingDataSource(DataSource delegate) {
    this.delegate = requireNonNull(delegate, "delegate");
  }

  @Override
  public abstract Connection getConnection() throws SQLException;

  @Override
  public Connection getConnection(String user, String password) throws SQLException {
    throw new SQLFeatureNotSupportedException("the store's pool has its own credentials");
  }

  @Override
  public PrintWriter getLogWriter() throws SQLException {
    return delegate.getLogWriter();
  }

  @Override
  public void setLogWriter(PrintWriter out) throws SQLException {
    delegate.setLogWriter(out);
  }

  @Override
  public void setLoginTimeout(int seconds) throws SQLException {
    delegate.setLoginTimeout(seconds);
  }

  @Override
  public int getLoginTimeout() throws SQLException {
    return delegate.getLoginTimeout();
  }

  @Override
  public Logger getParentLogger() throws SQLFeatureNotSupportedException {
    return delegate.getParentLogger();
  }

  @Override
  public <T> T unwrap(Class<T> type) throws SQLException {
    return delegate.unwrap(type);
  }

  @Override
  public boolean isWrapperFor(Class<?> type) throws SQLException {
    return delegate.isWrapperFor(type);
  }
}
