package dev.sluice.bench.target;

import dev.sluice.bench.http.HttpClients;
import dev.sluice.bench.http.HttpConnection;
import java.io.IOException;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * A server under test, started as its own OS process (so that its CPU and memory can be read from
 * /proc and nothing is shared with the load generator's JVM), with its output in a log file.
 */
public final class ServerProcess implements AutoCloseable {
  private final String name;
  private final Process process;
  private final Path log;

  private ServerProcess(String name, Process process, Path log) {
    this.name = name;
    this.process = process;
    this.log = log;
  }

  public static ServerProcess start(
      String name, List<String> command, Map<String, String> env, Path workDir, Path log)
      throws IOException {
    ProcessBuilder builder =
        new ProcessBuilder(command)
            .directory(workDir.toFile())
            .redirectErrorStream(true)
            .redirectOutput(log.toFile());
    builder.environment().putAll(env);
    return new ServerProcess(name, builder.start(), log);
  }

  public long pid() {
    return process.pid();
  }

  public String name() {
    return name;
  }

  /** Polls {@code GET readyPath} until it answers 2xx; fails early if the process dies. */
  public void awaitReady(String host, int port, String readyPath, long timeoutMillis)
      throws IOException, InterruptedException {
    long deadline = System.currentTimeMillis() + timeoutMillis;
    try (HttpClients clients = HttpClients.of("raw", host, port, null)) {
      while (System.currentTimeMillis() < deadline) {
        if (!process.isAlive()) {
          throw new IOException(
              name + " exited with " + process.exitValue() + " before it was ready; see " + log);
        }
        try (HttpConnection c = clients.open()) {
          if (c.get(readyPath).ok()) {
            return;
          }
        } catch (IOException notYet) {
          // not listening yet
        }
        Thread.sleep(100);
      }
    }
    throw new IOException(name + " not ready after " + timeoutMillis + " ms; see " + log);
  }

  public boolean alive() {
    return process.isAlive();
  }

  @Override
  public void close() {
    process.destroy(); // SIGTERM: both servers stop gracefully on it
    try {
      if (!process.waitFor(15, TimeUnit.SECONDS)) {
        process.destroyForcibly();
        process.waitFor(5, TimeUnit.SECONDS);
      }
    } catch (InterruptedException e) {
      process.destroyForcibly();
      Thread.currentThread().interrupt();
    }
  }
}
