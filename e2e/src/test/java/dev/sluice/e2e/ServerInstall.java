package dev.sluice.e2e;

import java.io.File;
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
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

/**
 * The server's jars as the end-to-end tests run them: copied once per test JVM, so that rebuilding
 * the server (or {@code mvn clean}) while the tests run cannot swap classes under a running
 * process, and with a class-data-sharing archive of that copy made by one training start.
 *
 * <p>Why the archive: a server process spends most of its start parsing and verifying the classes
 * of its 190 jars, and the tests start dozens of them. Measured on this machine's 2 cores from the
 * release artifact, to a ready server: 10-12 s of CPU and 6-7 s wall without an archive, 6.4-7.3 s
 * of CPU and 3.9-4.5 s with one. The JVM checks the archive against the JDK and the class path and
 * ignores it when they differ, so it can make a start slower, never wrong. If the training start
 * leaves no archive, servers start without one and this says so once.
 */
public final class ServerInstall {
  /** The server's test-only fault hook (server/pom.xml, the test-faults jar). */
  /** The server's jar in {@code server/target}, relative to the repository's root. */
  public static final String SERVER_JAR = SluiceServerProcess.SERVER_JAR;

  public static final String TEST_FAULTS_JAR =
      "sluice-server-" + SluiceServerProcess.VERSION + "-test-faults.jar";

  private static final Duration TRAINING_TIMEOUT = Duration.ofSeconds(90);

  /**
   * Set to {@code false} (a test JVM that starts one server, such as e2e-flink's) to start servers
   * without a class-data archive and skip the training start.
   */
  static final String TRAIN_PROPERTY = "sluice.e2e.serverArchive";

  private static final Map<Path, ServerInstall> COPIES = new ConcurrentHashMap<>();

  private final Path jar;
  private final Path lib;
  private final Path faults;
  private final Path archive;

  private ServerInstall(Path jar, Path lib, Path faults, Path archive) {
    this.jar = jar;
    this.lib = lib;
    this.faults = faults;
    this.archive = archive;
  }

  /**
   * The copy of {@code jar} and the jars in {@code lib} (and the test-faults jar beside {@code
   * jar}, if built), made and trained on first use in this JVM.
   */
  public static ServerInstall of(Path jar, Path lib) {
    return COPIES.computeIfAbsent(jar.toAbsolutePath().normalize(), j -> copy(j, lib));
  }

  /** The class path of {@code dev.sluice.Main}; with the fault hook appended when asked. */
  public String classpath(boolean withFaults) {
    String cp = jar + File.pathSeparator + lib.resolve("*");
    if (withFaults) {
      if (faults == null) {
        throw new IllegalStateException("no " + TEST_FAULTS_JAR + " was built beside " + jar);
      }
      cp += File.pathSeparator + faults; // after: the archive's class path stays a prefix
    }
    return cp;
  }

  /**
   * The JVM options of every server a test starts: the archive (when training made one), and C1
   * only. A test's server lives seconds to a minute and serves little; C2 spent most of its CPU
   * compiling code that never gets hot (the e2e lane's servers: 364 s -> 251 s CPU with C1 only,
   * one run each on a loaded machine). Benchmarks start their servers elsewhere, with C2.
   */
  public List<String> jvmOptions() {
    List<String> options = new ArrayList<>(List.of("-XX:TieredStopAtLevel=1"));
    if (archive != null) {
      options.add("-XX:SharedArchiveFile=" + archive);
    }
    return options;
  }

  private static ServerInstall copy(Path jar, Path lib) {
    try {
      Path dir = Files.createTempDirectory("sluice-e2e-server-");
      Runtime.getRuntime()
          .addShutdownHook(
              new Thread(() -> ProcessSupport.deleteRecursively(dir), "sluice-e2e-server-rm"));
      Path libCopy = Files.createDirectory(dir.resolve("lib"));
      Path jarCopy = Files.copy(jar, dir.resolve(jar.getFileName()));
      try (Stream<Path> jars = Files.list(lib)) {
        for (Path j : (Iterable<Path>) jars::iterator) {
          Files.copy(j, libCopy.resolve(j.getFileName()));
        }
      }
      Path faults = jar.resolveSibling(TEST_FAULTS_JAR);
      Path faultsCopy =
          Files.isRegularFile(faults) ? Files.copy(faults, dir.resolve(TEST_FAULTS_JAR)) : null;
      ServerInstall untrained = new ServerInstall(jarCopy, libCopy, faultsCopy, null);
      if (!Boolean.parseBoolean(System.getProperty(TRAIN_PROPERTY, "true"))) {
        return untrained; // one server per JVM: the training start would cost more than it saves
      }
      Path archive = untrained.train(dir);
      return new ServerInstall(jarCopy, libCopy, faultsCopy, archive);
    } catch (IOException e) {
      throw new UncheckedIOException("could not copy the Sluice server from " + jar, e);
    }
  }

  /**
   * Starts the server once with {@code -XX:ArchiveClassesAtExit}, asks it for a token so the
   * request path's classes load too, and stops it: the JVM writes the archive as it exits.
   */
  private Path train(Path dir) throws IOException {
    Path archive = dir.resolve("server.jsa");
    Path dataDir = Files.createDirectory(dir.resolve("training-data"));
    Path log = SluiceServerProcess.repoRoot().resolve("e2e/target/cds-training-server.log");
    Files.createDirectories(log.getParent());
    int port = ProcessSupport.freePort();
    String secret = ProcessSupport.randomHex(16);
    List<String> command =
        new ArrayList<>(
            List.of(
                Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-XX:ArchiveClassesAtExit=" + archive,
                "-Xmx512m",
                "-XX:+UseSerialGC",
                "-cp",
                classpath(false),
                "dev.sluice.Main",
                "serve",
                "--host",
                "127.0.0.1",
                "--port",
                Integer.toString(port),
                "--data-dir",
                dataDir.toString()));
    ProcessBuilder builder =
        new ProcessBuilder(command)
            .directory(dataDir.toFile())
            .redirectErrorStream(true)
            .redirectOutput(log.toFile());
    builder.environment().put("SLUICE_BOOTSTRAP_CREDENTIALS", "cds-training:" + secret);
    Process process = builder.start();
    try {
      boolean served = awaitToken(process, port, secret);
      process.destroy(); // SIGTERM: a normal exit, at which the archive is written
      if (!process.waitFor(TRAINING_TIMEOUT.toSeconds(), TimeUnit.SECONDS)) {
        process.destroyForcibly();
      }
      if (served && Files.isRegularFile(archive)) {
        return archive;
      }
      System.out.println(
          "ServerInstall: the training start left no class-data archive (see "
              + log
              + "); servers start without one");
      return null;
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      process.destroyForcibly();
      return null;
    } finally {
      ProcessSupport.deleteRecursively(dataDir);
    }
  }

  private static boolean awaitToken(Process process, int port, String secret)
      throws InterruptedException {
    HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();
    HttpRequest token =
        HttpRequest.newBuilder(
                URI.create("http://127.0.0.1:" + port + "/api/catalog/v1/oauth/tokens"))
            .header("Content-Type", "application/x-www-form-urlencoded")
            .POST(
                HttpRequest.BodyPublishers.ofString(
                    "grant_type=client_credentials&client_id=cds-training&client_secret="
                        + secret
                        + "&scope=PRINCIPAL_ROLE:ALL"))
            .build();
    Instant deadline = Instant.now().plus(TRAINING_TIMEOUT);
    while (Instant.now().isBefore(deadline) && process.isAlive()) {
      try {
        if (http.send(token, HttpResponse.BodyHandlers.discarding()).statusCode() == 200) {
          return true;
        }
      } catch (IOException notYet) {
        // not listening yet
      }
      Thread.sleep(100);
    }
    return false;
  }
}
