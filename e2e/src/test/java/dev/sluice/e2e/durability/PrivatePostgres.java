package dev.sluice.e2e.durability;

import static org.junit.jupiter.api.Assertions.fail;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * A PostgreSQL server of one test's own (scripts/postgres-testbed.sh), so that the test can stop it
 * and start it again mid-storm without touching the shared test bed.
 */
final class PrivatePostgres implements AutoCloseable {
  private final Path script;
  private final Map<String, String> env;

  private PrivatePostgres(Path script, Map<String, String> env) {
    this.script = script;
    this.env = env;
  }

  static PrivatePostgres start() throws IOException {
    return start(300);
  }

  /** With {@code max_connections} set to {@code maxConnections} (superusers included). */
  static PrivatePostgres start(int maxConnections) throws IOException {
    Path script = ReplicaCluster.repoRoot().resolve("scripts/postgres-testbed.sh");
    Map<String, String> limit = Map.of("PG_MAX_CONNECTIONS", Integer.toString(maxConnections));
    String out =
        bash(
            script,
            limit,
            "pg_testbed_start && echo \"PG_BIN=$PG_BIN\" && echo \"PG_DIR=$PG_DIR\""
                + " && echo \"PG_PORT=$PG_PORT\" && echo \"URL=$SLUICE_TEST_PG_URL\"");
    Map<String, String> env = new HashMap<>(limit);
    for (String line : out.split("\n")) {
      int eq = line.indexOf('=');
      if (eq > 0 && List.of("PG_BIN", "PG_DIR", "PG_PORT", "URL").contains(line.substring(0, eq))) {
        env.put(line.substring(0, eq), line.substring(eq + 1).strip());
      }
    }
    if (env.size() != 5) {
      fail("scripts/postgres-testbed.sh did not start a server: " + out);
    }
    return new PrivatePostgres(script, env);
  }

  /** The JDBC URL of its {@code postgres} database. */
  String adminUrl() {
    return env.get("URL");
  }

  /** Its server log (what PostgreSQL refused, and why). */
  String serverLog() throws IOException {
    return java.nio.file.Files.readString(Path.of(env.get("PG_DIR"), "server.log"));
  }

  /** Stops it as an outage would: every connection cut ({@code pg_ctl stop -m fast}). */
  void halt() throws IOException {
    bash(script, env, "pg_testbed_halt");
  }

  /** Starts it again on the same data and port. */
  void resume() throws IOException {
    bash(script, env, "pg_testbed_resume");
  }

  /**
   * Freezes it as a stalled host would: SIGSTOP to the postmaster and every backend of this server
   * only (never {@code pkill -u postgres}: the shared test bed runs as that user too). Connections
   * stay open and nothing answers.
   */
  void freeze() throws IOException {
    bash(script, env, "pg_testbed_freeze");
  }

  /** SIGCONT to what {@link #freeze} stopped. */
  void thaw() throws IOException {
    bash(script, env, "pg_testbed_thaw");
  }

  @Override
  public void close() throws IOException {
    bash(script, env, "pg_testbed_thaw 2>/dev/null; pg_testbed_halt; rm -rf \"$PG_DIR\"");
  }

  private static String bash(Path script, Map<String, String> env, String command)
      throws IOException {
    ProcessBuilder pb =
        new ProcessBuilder("bash", "-c", "source \"" + script + "\" && " + command)
            .redirectErrorStream(true);
    pb.environment().putAll(env);
    Process p = pb.start();
    try {
      if (!p.waitFor(120, TimeUnit.SECONDS)) {
        p.destroyForcibly();
        fail(command + ": no answer in 120 s");
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IOException(e);
    }
    String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    if (p.exitValue() != 0) {
      fail(command + " failed (" + p.exitValue() + "): " + out);
    }
    return out;
  }
}
