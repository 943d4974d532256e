package dev.sluice.e2e;

import static org.assertj.core.api.Assertions.fail;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * Iceberg's reference REST server (iceberg-open-api's RESTCatalogServer, JdbcCatalog on SQLite) as
 * a separate OS process on a free loopback port, for tests that need a second, non-Sluice Iceberg
 * REST catalog: import, and federation. Its class path is {@code e2e/target/reference-lib} (copied
 * by e2e/pom.xml: Iceberg 1.11, Jetty 11, SQLite, iceberg-aws and the AWS SDK bundle), its launcher
 * {@code e2e/src/test/reference/ReferenceServer.java}, run by the JDK's source launcher. Its log is
 * {@code e2e/target/<name>-reference.log}.
 *
 * <p>Configured like the original by {@code CATALOG_*} variables: {@code env} may add any, e.g. for
 * a warehouse on Ceph RGW {@code CATALOG_IO__IMPL=org.apache.iceberg.aws.s3.S3FileIO}, {@code
 * CATALOG_S3_ENDPOINT}, {@code CATALOG_S3_PATH__STYLE__ACCESS=true}, {@code
 * CATALOG_S3_ACCESS__KEY__ID}, {@code CATALOG_S3_SECRET__ACCESS__KEY}, {@code
 * CATALOG_CLIENT_REGION}. Without {@code CATALOG_IO__IMPL} the warehouse is a local {@code file:}
 * folder.
 */
final class ReferenceServerProcess implements AutoCloseable {
  static final String LIB = "e2e/target/reference-lib";
  static final String LAUNCHER = "e2e/src/test/reference/ReferenceServer.java";
  private static final Duration STARTUP_TIMEOUT = Duration.ofSeconds(60);

  private final Process process;
  private final Path workDir;
  private final Path logFile;
  private final int port;
  private final HttpClient http =
      HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();

  private ReferenceServerProcess(Process process, Path workDir, Path logFile, int port) {
    this.process = process;
    this.workDir = workDir;
    this.logFile = logFile;
    this.port = port;
  }

  /**
   * Starts a server whose warehouse is {@code warehouse} (a {@code file:} URI for the local FileIO,
   * or an {@code s3://} one with {@code env} naming S3FileIO), waits until {@code /v1/config}
   * answers 200.
   */
  static ReferenceServerProcess start(String name, String warehouse, Map<String, String> env) {
    Path root = SluiceServerProcess.repoRoot();
    Path lib = root.resolve(LIB);
    if (!Files.isDirectory(lib)) {
      fail(
          "The reference server's class path %s is missing: run the e2e module's build"
              + " (`mvn -o generate-test-resources -pl e2e` copies it)",
          lib);
    }
    try {
      Path workDir = Files.createTempDirectory("sluice-e2e-reference-" + name + "-");
      Path logFile = root.resolve("e2e/target/" + name + "-reference.log");
      Files.createDirectories(logFile.getParent());
      int port = ProcessSupport.freePort();
      List<String> command =
          new ArrayList<>(
              List.of(
                  Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                  "-Xmx256m",
                  "-XX:+UseSerialGC",
                  "-XX:TieredStopAtLevel=1",
                  "-cp",
                  lib.resolve("*").toString(),
                  root.resolve(LAUNCHER).toString()));
      ProcessBuilder builder =
          new ProcessBuilder(command)
              .directory(workDir.toFile())
              .redirectErrorStream(true)
              .redirectOutput(logFile.toFile());
      Map<String, String> environment = builder.environment();
      environment.keySet().removeIf(key -> key.startsWith("CATALOG_"));
      environment.put("CATALOG_WAREHOUSE", warehouse);
      // One connection: SQLite serializes writers anyway, and a pool of them fails with BUSY.
      // A test's catalog needs no durability across a power cut: no fsync per commit.
      environment.put(
          "CATALOG_URI",
          "jdbc:sqlite:file:"
              + workDir.resolve("catalog.db")
              + "?synchronous=OFF&journal_mode=WAL");
      environment.put("CATALOG_CLIENTS", "1");
      environment.put("CATALOG_REST_HOST", "127.0.0.1");
      environment.put("CATALOG_REST_PORT", Integer.toString(port));
      environment.putAll(env);
      ReferenceServerProcess server =
          new ReferenceServerProcess(builder.start(), workDir, logFile, port);
      server.awaitReady();
      return server;
    } catch (IOException e) {
      throw new UncheckedIOException("could not start the reference REST server", e);
    }
  }

  /** Its Iceberg REST base URI (what a RESTCatalog's {@code uri} is). */
  String uri() {
    return "http://127.0.0.1:" + port;
  }

  /** A JSON call under {@link #uri()}; the answer whatever its status. */
  HttpResponse<String> send(String method, String path, String body) {
    HttpRequest.Builder request =
        HttpRequest.newBuilder(URI.create(uri() + path))
            .timeout(Duration.ofSeconds(30))
            .header("Content-Type", "application/json")
            .method(
                method,
                body == null
                    ? HttpRequest.BodyPublishers.noBody()
                    : HttpRequest.BodyPublishers.ofString(body));
    try {
      return http.send(request.build(), HttpResponse.BodyHandlers.ofString());
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException(e);
    }
  }

  private void awaitReady() {
    Instant deadline = Instant.now().plus(STARTUP_TIMEOUT);
    String last = "no attempt yet";
    while (Instant.now().isBefore(deadline)) {
      if (!process.isAlive()) {
        fail("The reference REST server exited with %d; log: %s", process.exitValue(), logFile);
      }
      try {
        HttpResponse<String> config = send("GET", "/v1/config", null);
        if (config.statusCode() == 200) {
          return;
        }
        last = "HTTP " + config.statusCode();
      } catch (UncheckedIOException e) {
        last = e.getCause().toString();
      }
      try {
        Thread.sleep(100);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        break;
      }
    }
    close();
    fail(
        "The reference REST server did not answer within %s (%s); log: %s",
        STARTUP_TIMEOUT, last, logFile);
  }

  @Override
  public void close() {
    process.destroy();
    try {
      if (!process.waitFor(10, TimeUnit.SECONDS)) {
        process.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      process.destroyForcibly();
    }
    ProcessSupport.deleteRecursively(workDir);
  }
}
