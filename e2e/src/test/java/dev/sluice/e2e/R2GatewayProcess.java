package dev.sluice.e2e;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.assertj.core.api.Assertions.fail;

import java.io.BufferedReader;
import java.io.File;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.PrintWriter;
import java.io.UncheckedIOException;
import java.io.Writer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;

/**
 * The loopback R2 gateway of the server's test sources ({@code dev.sluice.testing.R2GatewayMain})
 * as a child process, from {@code server/target/test-classes}, {@code classes} and {@code lib} (the
 * server's test classes and Jackson 2.19 stay off this JVM's Spark classpath). Talks to it over its
 * stdin/stdout line protocol; every other line of its output (its log) goes to {@code
 * e2e/target/<name>-r2-gateway.log}.
 */
final class R2GatewayProcess implements AutoCloseable {
  private static final String MAIN = "dev.sluice.testing.R2GatewayMain";
  private static final String PREFIX = "R2GATEWAY ";
  private static final long TIMEOUT_SECONDS = 30;

  /** The gateway's counters: requests allowed (all), of those signed by the parent, refused. */
  record Counters(long allowed, long parentRequests, long refusals) {
    /** Allowed requests that carried a minted (JWT) session token: the engine's. */
    long minted() {
      return allowed - parentRequests;
    }
  }

  private final Process process;
  private final PrintWriter commands;
  private final BlockingQueue<String> answers = new LinkedBlockingQueue<>();
  private final Path logFile;
  private final Thread shutdownHook;
  private String endpoint;

  private R2GatewayProcess(Process process, Path logFile) {
    this.process = process;
    this.logFile = logFile;
    this.commands = new PrintWriter(process.getOutputStream(), true, UTF_8);
    this.shutdownHook = new Thread(process::destroyForcibly, "sluice-e2e-r2-gateway-kill");
    Runtime.getRuntime().addShutdownHook(shutdownHook);
    Thread reader = new Thread(this::pump, "sluice-e2e-r2-gateway-stdout");
    reader.setDaemon(true);
    reader.start();
  }

  private void awaitReady() {
    endpoint = await("READY ").substring("READY ".length()).trim();
  }

  /**
   * Starts the gateway for account {@code accountId} and parent key {@code parentKeyId}/{@code
   * parentSecret}; {@code rgwEnv} (the {@code SLUICE_TEST_RGW_*} variables) says where to forward.
   */
  static R2GatewayProcess start(
      String name,
      String accountId,
      String parentKeyId,
      String parentSecret,
      Map<String, String> rgwEnv) {
    Path target = SluiceServerProcess.repoRoot().resolve("server/target");
    Path testClasses = target.resolve("test-classes");
    Path classes = target.resolve("classes");
    Path lib = target.resolve("lib");
    if (!Files.isRegularFile(testClasses.resolve(MAIN.replace('.', '/') + ".class"))
        || !Files.isDirectory(classes)
        || !Files.isDirectory(lib)) {
      fail(
          "The server's test classes are not built: expected %s, %s and %s. Build them with "
              + "`mvn -q -B -DskipTests -pl server package`, or run `mvn -B verify` from the root.",
          testClasses, classes, lib);
    }
    try {
      Path logDir = Files.createDirectories(SluiceServerProcess.repoRoot().resolve("e2e/target"));
      Path logFile = logDir.resolve(name + "-r2-gateway.log");
      Files.deleteIfExists(logFile);
      Path javaBin = Path.of(System.getProperty("java.home"), "bin", "java");
      ProcessBuilder builder =
          new ProcessBuilder(
                  javaBin.toString(),
                  "-Xmx256m",
                  "-XX:+UseSerialGC",
                  "-cp",
                  String.join(
                      File.pathSeparator,
                      testClasses.toString(),
                      classes.toString(),
                      lib.resolve("*").toString()),
                  MAIN)
              .redirectErrorStream(true);
      builder.environment().putAll(rgwEnv);
      builder.environment().put("R2_GATEWAY_ACCOUNT_ID", accountId);
      builder.environment().put("R2_GATEWAY_PARENT_KEY_ID", parentKeyId);
      builder.environment().put("R2_GATEWAY_PARENT_SECRET", parentSecret);
      R2GatewayProcess gateway = new R2GatewayProcess(builder.start(), logFile);
      try {
        gateway.awaitReady();
      } catch (RuntimeException | AssertionError e) {
        gateway.close();
        throw e;
      }
      return gateway;
    } catch (IOException e) {
      throw new UncheckedIOException("could not start the R2 gateway", e);
    }
  }

  /** {@code http://127.0.0.1:PORT}: the R2 endpoint (path-style). */
  String endpoint() {
    return endpoint;
  }

  Counters counters() {
    String[] n = ask("counters", "COUNTERS ").split(" ");
    return new Counters(Long.parseLong(n[1]), Long.parseLong(n[2]), Long.parseLong(n[3]));
  }

  /** One line per refusal so far: method, path, status, S3 code and reason. */
  List<String> refusalLog() {
    List<String> lines = new ArrayList<>();
    commands.println("refusals");
    for (String line = await(""); !line.equals("END"); line = await("")) {
      if (!line.startsWith("REFUSAL ")) {
        fail("unexpected answer from the R2 gateway: %s", line);
      }
      lines.add(line.substring("REFUSAL ".length()));
    }
    return lines;
  }

  private String ask(String command, String answerPrefix) {
    commands.println(command);
    return await(answerPrefix);
  }

  /** The next protocol answer, which must start with {@code expectedPrefix}. */
  private String await(String expectedPrefix) {
    try {
      String line = answers.poll(TIMEOUT_SECONDS, TimeUnit.SECONDS);
      if (line == null) {
        fail(
            "The R2 gateway did not answer within %d s (alive: %s). Log: %s",
            TIMEOUT_SECONDS, process.isAlive(), logFile);
      }
      if (line.equals("EOF")) {
        fail("The R2 gateway exited (code %s). Log: %s", exitCode(), logFile);
      }
      if (!line.startsWith(expectedPrefix)) {
        fail(
            "The R2 gateway answered '%s', expected '%s…'. Log: %s", line, expectedPrefix, logFile);
      }
      return line;
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException(e);
    }
  }

  /** Copies the child's output to the log file; protocol answers also go to the queue. */
  private void pump() {
    try (BufferedReader out =
            new BufferedReader(new InputStreamReader(process.getInputStream(), UTF_8));
        Writer log = Files.newBufferedWriter(logFile, UTF_8)) {
      for (String line = out.readLine(); line != null; line = out.readLine()) {
        log.write(line);
        log.write(System.lineSeparator());
        log.flush();
        if (line.startsWith(PREFIX)) {
          answers.add(line.substring(PREFIX.length()));
        }
      }
    } catch (IOException e) {
      // the process is gone; the EOF marker below tells a waiting caller
    } finally {
      answers.add("EOF");
    }
  }

  private String exitCode() {
    try {
      return process.waitFor(5, TimeUnit.SECONDS) ? Integer.toString(process.exitValue()) : "?";
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return "?";
    }
  }

  @Override
  public void close() {
    if (process.isAlive()) {
      commands.println("quit");
      commands.close();
      try {
        if (!process.waitFor(10, TimeUnit.SECONDS)) {
          process.destroyForcibly();
          process.waitFor(10, TimeUnit.SECONDS);
        }
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        process.destroyForcibly();
      }
    }
    try {
      Runtime.getRuntime().removeShutdownHook(shutdownHook);
    } catch (IllegalStateException ignored) {
      // already shutting down
    }
  }
}
