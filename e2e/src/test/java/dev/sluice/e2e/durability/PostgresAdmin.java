package dev.sluice.e2e.durability;

import java.io.IOException;
import java.net.URL;
import java.net.URLClassLoader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.Driver;
import java.sql.Statement;
import java.util.Properties;
import java.util.stream.Stream;

/** Administration of the test PostgreSQL (creating and dropping databases) through its driver. */
final class PostgresAdmin {
  private PostgresAdmin() {}

  /** Runs {@code sql} on {@code url}. */
  static void execute(String url, String sql) {
    Properties props = new Properties();
    try (Connection conn = postgresDriver().connect(url, props)) {
      if (conn == null) {
        throw new IllegalStateException("the PostgreSQL driver does not accept " + url);
      }
      try (Statement st = conn.createStatement()) {
        st.execute(sql);
      }
    } catch (Exception e) {
      throw new IllegalStateException("`" + sql + "` on " + url + " failed: " + e.getMessage(), e);
    }
  }

  private static Driver driver;

  /**
   * The PostgreSQL JDBC driver: from the test classpath if it is there, else from the server's own
   * {@code server/target/lib} (the e2e module does not depend on it).
   */
  private static synchronized Driver postgresDriver()
      throws ReflectiveOperationException, IOException {
    if (driver != null) {
      return driver;
    }
    Class<?> type;
    try {
      type = Class.forName("org.postgresql.Driver");
    } catch (ClassNotFoundException e) {
      Path lib = ReplicaCluster.repoRoot().resolve(ReplicaCluster.SERVER_LIB);
      Path jar;
      try (Stream<Path> jars = Files.list(lib)) {
        jar =
            jars.filter(p -> p.getFileName().toString().matches("postgresql-[0-9.]+\\.jar"))
                .findFirst()
                .orElseThrow(() -> new IllegalStateException("no postgresql-*.jar in " + lib));
      }
      URLClassLoader loader =
          new URLClassLoader(new URL[] {jar.toUri().toURL()}, ClassLoader.getPlatformClassLoader());
      type = Class.forName("org.postgresql.Driver", true, loader);
    }
    driver = (Driver) type.getDeclaredConstructor().newInstance();
    return driver;
  }
}
