package dev.sluice.e2e.durability;

import static org.junit.jupiter.api.Assertions.fail;

import dev.sluice.e2e.ProcessSupport;
import dev.sluice.e2e.ServerInstall;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.apache.iceberg.rest.RESTCatalog;

/**
 * N Sluice server processes ("replicas") sharing one fresh PostgreSQL database on the server that
 * {@code ./scripts/test-all.sh} starts ({@code SLUICE_TEST_PG_URL}), and one FILE catalog on a
 * local warehouse directory they all see.
 *
 * <p>Each replica is a separate OS process started from a copy of {@code server/target} (so a
 * rebuild during the run cannot swap classes under it), on its own loopback port, logging to {@code
 * e2e/target/<name>-r<i>-server.log}. {@link Replica#kill()} is a {@code kill -9}.
 */
final class ReplicaCluster implements AutoCloseable {
  static final String PG_ENV = "SLUICE_TEST_PG_URL";
  static final String CATALOG = "dur";

  /**
   * Optional: a directory holding another build of the server (its jar and {@code lib/}) to run
   * instead of {@code server/target}, e.g. an older version. (A broken server to see these tests
   * catch it needs no other build: see {@link #start(String, int, String)}.)
   */
  static final String SERVER_DIR_ENV = "SLUICE_DURABILITY_SERVER_DIR";

  private static final String SERVER_JAR = ServerInstall.SERVER_JAR;

  /**
   * TEST-ONLY server faults: the server's test sources hold them ({@code
   * dev.sluice.testing.faults}: store decorators, and {@value #FAULTY_MAIN}, which starts {@code
   * sluice} with one in the catalogs' store), packaged alone as this jar next to the server jar. A
   * replica with a fault runs that main, with the jar on its class path and the fault's name in the
   * system property {@value #FAULT_PROPERTY}; the shipped server has no fault to turn on.
   */
  private static final String TEST_FAULTS_JAR = ServerInstall.TEST_FAULTS_JAR;

  static final String FAULT_PROPERTY = "sluice.test.fault";

  private static final String FAULTY_MAIN = "dev.sluice.testing.faults.FaultyServerMain";

  /** Commits overwrite metadata pointers without compare-and-set. */
  static final String BLIND_POINTER_SWAP = "blind-pointer-swap";

  static final String SERVER_LIB = "server/target/lib";
  private static final Duration STARTUP_TIMEOUT = Duration.ofSeconds(90);
  private static final Pattern ACCESS_TOKEN =
      Pattern.compile("\"access_token\"\\s*:\\s*\"([^\"]+)\"");

  private final String name;
  private final Path workDir;
  private final Path warehouse;
  private final Path dataRoot;
  private final String adminUrl;
  private final String databaseName;
  private final String fault;
  private final boolean embedded;
  private ServerInstall install;
  private int launches;
  private int initialCount;
  private final String clientId = "dur-root";
  private final String clientSecret = ProcessSupport.randomHex(16);
  private final List<Replica> replicas = new ArrayList<>();
  private final HttpClient http =
      HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();

  private ReplicaCluster(
      String name,
      Path workDir,
      String adminUrl,
      String databaseName,
      String fault,
      Path dataRoot,
      Path warehouseRoot)
      throws IOException {
    this.name = name;
    this.fault = fault;
    this.embedded = adminUrl == null;
    this.workDir = workDir;
    this.dataRoot = dataRoot != null ? dataRoot : workDir;
    this.warehouse =
        Files.createDirectories(
            (warehouseRoot != null ? warehouseRoot : workDir).resolve("warehouse"));
    this.adminUrl = adminUrl;
    this.databaseName = databaseName;
  }

  /**
   * The repository root: {@code -Dsluice.repo.root} (set by the POM) or the parent of the working
   * directory.
   */
  static Path repoRoot() {
    String configured = System.getProperty("sluice.repo.root");
    Path root =
        configured != null ? Path.of(configured) : Path.of(System.getProperty("user.dir"), "..");
    return root.toAbsolutePath().normalize();
  }

  /**
   * Creates a fresh database, starts {@code count} replicas on it (concurrently, as a rolling
   * deployment would), waits until all are healthy and creates the shared FILE catalog {@value
   * #CATALOG}. Fails (does not skip) without {@code SLUICE_TEST_PG_URL}.
   */
  static ReplicaCluster start(String name, int count) {
    return start(name, count, null);
  }

  /**
   * As {@link #start(String, int)}, every replica with the TEST-ONLY server fault {@code fault}
   * (e.g. {@link #BLIND_POINTER_SWAP}) on, or none if null.
   */
  static ReplicaCluster start(String name, int count, String fault) {
    return start(name, count, fault, false);
  }

  /**
   * One server on the embedded default store (H2 in its data directory), as {@code ./sluice serve}
   * runs it; {@link #restart} starts it again on the same data after a {@link Replica#kill()}.
   */
  static ReplicaCluster startEmbedded(String name) {
    return start(name, 1, null, true, null, null);
  }

  /**
   * As {@link #startEmbedded(String)}, with the server's data directory (its H2 file) under {@code
   * dataRoot} and the catalog's warehouse under {@code warehouseRoot}: file systems a test can
   * fill.
   */
  static ReplicaCluster startEmbedded(String name, Path dataRoot, Path warehouseRoot) {
    return start(name, 1, null, true, dataRoot, warehouseRoot);
  }

  /**
   * As {@link #start(String, int)}, on the PostgreSQL server whose {@code postgres} database is at
   * {@code adminUrl} (a test's own server, which it may stop and start).
   */
  static ReplicaCluster startOn(String adminUrl, String name, int count) {
    return start(name, count, null, false, null, null, adminUrl);
  }

  private static ReplicaCluster start(String name, int count, String fault, boolean embedded) {
    return start(name, count, fault, embedded, null, null);
  }

  private static ReplicaCluster start(
      String name, int count, String fault, boolean embedded, Path dataRoot, Path warehouseRoot) {
    return start(
        name,
        count,
        fault,
        embedded,
        dataRoot,
        warehouseRoot,
        embedded ? null : System.getenv(PG_ENV));
  }

  private static ReplicaCluster start(
      String name,
      int count,
      String fault,
      boolean embedded,
      Path dataRoot,
      Path warehouseRoot,
      String admin) {
    if (!embedded && (admin == null || admin.isBlank())) {
      fail(
          PG_ENV
              + " is not set: these tests need a real PostgreSQL. Run ./scripts/test-all.sh, which "
              + "installs and starts a private one (or source scripts/postgres-testbed.sh; pg_testbed_start).");
    }
    Path root = repoRoot();
    Path jar = root.resolve(SERVER_JAR);
    Path lib = root.resolve(SERVER_LIB);
    String otherServer = System.getenv(SERVER_DIR_ENV);
    if (otherServer != null && !otherServer.isBlank()) {
      jar = Path.of(otherServer).resolve(jar.getFileName());
      lib = Path.of(otherServer).resolve("lib");
    }
    if (!Files.isRegularFile(jar) || !Files.isDirectory(lib)) {
      fail(
          "The Sluice server is not built: expected "
              + jar
              + " and "
              + lib
              + ". Build it first with "
              + "`mvn -q -B -DskipTests -pl server -am package` (from "
              + root
              + ").");
    }
    Path faults = null;
    if (fault != null) {
      faults = jar.resolveSibling(TEST_FAULTS_JAR);
      if (!Files.isRegularFile(faults)) {
        fail(
            "No "
                + faults
                + ": the server's test-only fault hook is packaged by `mvn -pl client,server"
                + " package -DskipTests` (test classes compiled: not -Dmaven.test.skip).");
      }
    }
    String database = embedded ? null : "sluice_dur_" + ProcessSupport.randomHex(6);
    if (!embedded) {
      PostgresAdmin.execute(admin, "CREATE DATABASE " + database);
    }
    ReplicaCluster cluster = null;
    try {
      cluster =
          new ReplicaCluster(
              name,
              Files.createTempDirectory("sluice-dur-" + name + "-"),
              admin,
              database,
              fault,
              dataRoot,
              warehouseRoot);
      cluster.install = ServerInstall.of(jar, lib);
      cluster.initialCount = count;
      List<CompletableFuture<Replica>> starting = new ArrayList<>();
      for (int i = 0; i < count; i++) {
        int index = i;
        ReplicaCluster c = cluster;
        starting.add(CompletableFuture.supplyAsync(() -> c.launch(index)));
      }
      for (CompletableFuture<Replica> f : starting) {
        cluster.replicas.add(f.join());
      }
      for (Replica r : cluster.replicas) {
        r.awaitHealthy();
      }
      cluster.createCatalog();
      return cluster;
    } catch (IOException e) {
      closeQuietly(cluster);
      throw new UncheckedIOException(e);
    } catch (RuntimeException | Error e) {
      closeQuietly(cluster);
      throw e;
    }
  }

  private static void closeQuietly(ReplicaCluster cluster) {
    if (cluster != null) {
      try {
        cluster.close();
      } catch (RuntimeException ignored) {
        // the original failure matters more
      }
    }
  }

  /**
   * The JDBC URL of the PostgreSQL server's {@code postgres} database ({@code SLUICE_TEST_PG_URL}).
   */
  String adminUrl() {
    return adminUrl;
  }

  /** The name of this cluster's database. */
  String databaseName() {
    return databaseName;
  }

  /** The JDBC URL of this cluster's database. */
  String databaseUrl() {
    return adminUrl.replaceFirst("/postgres\\?", "/" + databaseName + "?");
  }

  private Replica launch(int index) {
    try {
      Path dataDir = Files.createDirectories(dataRoot.resolve("r" + index + "/data"));
      // The pointer cache is the default; stated so that these tests keep covering it. The
      // embedded store is the default too: no database key at all.
      String yaml =
          (embedded ? "" : "database: { url: \"" + databaseUrl() + "\", pointerCache: true }\n")
              + "bootstrap: { quickstartCatalog: false }\n";
      Path config =
          Files.writeString(
              Files.createDirectories(workDir.resolve("r" + index)).resolve("sluice.yaml"),
              yaml,
              StandardCharsets.UTF_8);
      Path logDir = Files.createDirectories(repoRoot().resolve("e2e/target"));
      int launch; // the first start's logs keep the plain name; a restart's has its number
      synchronized (this) {
        launch = launches++;
      }
      Path logFile =
          logDir.resolve(
              name + "-r" + index + (launch < initialCount ? "" : "-" + launch) + "-server.log");
      int port = ProcessSupport.freePort();
      Path javaBin = Path.of(System.getProperty("java.home"), "bin", "java");
      List<String> command = new ArrayList<>(List.of(javaBin.toString(), "-Xmx512m"));
      command.addAll(install.jvmOptions());
      if (fault != null) {
        command.add("-D" + FAULT_PROPERTY + "=" + fault);
      }
      command.addAll(
          List.of(
              "-XX:+UseSerialGC",
              "-cp",
              install.classpath(fault != null),
              fault == null ? "dev.sluice.Main" : FAULTY_MAIN,
              "serve",
              "--host",
              "127.0.0.1",
              "--port",
              Integer.toString(port),
              "--data-dir",
              dataDir.toString(),
              "--config",
              config.toString()));
      ProcessBuilder builder =
          new ProcessBuilder(command)
              .directory(dataDir.toFile())
              .redirectErrorStream(true)
              .redirectOutput(logFile.toFile());
      builder.environment().put("SLUICE_BOOTSTRAP_CREDENTIALS", clientId + ":" + clientSecret);
      return new Replica(index, builder.start(), port, logFile);
    } catch (IOException e) {
      throw new UncheckedIOException("could not start replica " + index, e);
    }
  }

  Replica replica(int index) {
    return replicas.get(index);
  }

  /** Starts a killed replica again, on the same data directory; waits until it is healthy. */
  Replica restart(int index) {
    Replica old = replicas.get(index);
    if (old.isAlive()) {
      throw new IllegalStateException("replica " + index + " is still running");
    }
    Replica again = launch(index);
    replicas.set(index, again);
    again.awaitHealthy();
    return again;
  }

  List<Replica> replicas() {
    return List.copyOf(replicas);
  }

  int size() {
    return replicas.size();
  }

  /** The warehouse root shared by all replicas, as a {@code file:/} URI string. */
  String warehouseUri() {
    return warehouse.toUri().toString().replaceFirst("^file:///", "file:/").replaceFirst("/$", "");
  }

  /**
   * An Iceberg {@code RESTCatalog} on {@code replica} as root, configured as a user would ({@code
   * uri}, {@code warehouse}, {@code credential}) plus {@code extra}. The HTTP client retries as
   * little as it can ({@code rest.client.max-retries=1}, its minimum; it never retries a POST after
   * an I/O error, only after a 429/502/503/504), so outcomes reach the caller as they were.
   */
  RESTCatalog client(int replica, String clientName, Map<String, String> extra) {
    Map<String, String> props = new HashMap<>();
    props.put("uri", replica(replica).catalogUri());
    props.put("warehouse", CATALOG);
    props.put("credential", clientId + ":" + clientSecret);
    props.put("rest.client.max-retries", "1");
    props.put("rest.client.connection-timeout-ms", "3000");
    props.put("rest.client.socket-timeout-ms", "20000");
    props.putAll(extra);
    RESTCatalog catalog = new RESTCatalog();
    catalog.initialize(clientName, props);
    return catalog;
  }

  RESTCatalog client(int replica, String clientName) {
    return client(replica, clientName, Map.of());
  }

  private void createCatalog() {
    String location = warehouseUri();
    String body =
        "{\"catalog\":{\"name\":\""
            + CATALOG
            + "\",\"type\":\"INTERNAL\","
            + "\"properties\":{\"default-base-location\":\""
            + location
            + "\"},"
            + "\"storageConfigInfo\":{\"storageType\":\"FILE\",\"allowedLocations\":[\""
            + location
            + "\"]}}}";
    Replica r = replica(0);
    HttpResponse<String> response =
        send(r, "POST", "/api/management/v1/catalogs", fetchToken(r), body);
    if (response.statusCode() / 100 != 2) {
      fail(
          "creating catalog "
              + CATALOG
              + " on replica 0 answered "
              + response.statusCode()
              + ": "
              + response.body());
    }
  }

  /** A root bearer token from {@code replica}'s OAuth2 client-credentials endpoint. */
  String fetchToken(Replica replica) {
    String form =
        "grant_type=client_credentials&client_id="
            + URLEncoder.encode(clientId, StandardCharsets.UTF_8)
            + "&client_secret="
            + URLEncoder.encode(clientSecret, StandardCharsets.UTF_8)
            + "&scope="
            + URLEncoder.encode("PRINCIPAL_ROLE:ALL", StandardCharsets.UTF_8);
    HttpRequest request =
        HttpRequest.newBuilder(URI.create(replica.catalogUri() + "/v1/oauth/tokens"))
            .timeout(Duration.ofSeconds(10))
            .header("Content-Type", "application/x-www-form-urlencoded")
            .POST(HttpRequest.BodyPublishers.ofString(form))
            .build();
    HttpResponse<String> response = exchange(request);
    Matcher m = ACCESS_TOKEN.matcher(response.body());
    if (response.statusCode() != 200 || !m.find()) {
      fail("POST " + request.uri() + " answered " + response.statusCode() + ": " + response.body());
    }
    return m.group(1);
  }

  /**
   * Sends {@code method path} (with a JSON body if not null) to {@code replica}; any status is
   * returned.
   */
  HttpResponse<String> send(
      Replica replica, String method, String path, String token, String jsonBody) {
    HttpRequest.Builder request =
        HttpRequest.newBuilder(URI.create(replica.rootUrl() + path))
            .timeout(Duration.ofSeconds(30))
            .header("Authorization", "Bearer " + token)
            .header("Accept", "application/json");
    if (jsonBody != null) {
      request
          .header("Content-Type", "application/json")
          .method(method, HttpRequest.BodyPublishers.ofString(jsonBody, StandardCharsets.UTF_8));
    } else {
      request.method(method, HttpRequest.BodyPublishers.noBody());
    }
    return exchange(request.build());
  }

  private HttpResponse<String> exchange(HttpRequest request) {
    try {
      return http.send(request, HttpResponse.BodyHandlers.ofString());
    } catch (IOException e) {
      throw new UncheckedIOException(request.method() + " " + request.uri() + " failed", e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException(e);
    }
  }

  @Override
  public void close() {
    for (Replica r : replicas) {
      r.stop();
    }
    if (!embedded) {
      try {
        PostgresAdmin.execute(
            adminUrl, "DROP DATABASE IF EXISTS " + databaseName + " WITH (FORCE)");
      } catch (RuntimeException ignored) {
        // a database left behind on the throw-away test server is harmless
      }
    }
    ProcessSupport.deleteRecursively(workDir);
  }

  /** One server process of the cluster. */
  static final class Replica {
    private final int index;
    private final Process process;
    private final int port;
    private final Path logFile;
    private final HttpClient http =
        HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(2)).build();
    private volatile boolean killed;

    private Replica(int index, Process process, int port, Path logFile) {
      this.index = index;
      this.process = process;
      this.port = port;
      this.logFile = logFile;
      Runtime.getRuntime()
          .addShutdownHook(new Thread(process::destroyForcibly, "sluice-dur-kill-r" + index));
    }

    int index() {
      return index;
    }

    String id() {
      return "r" + index;
    }

    String rootUrl() {
      return "http://127.0.0.1:" + port;
    }

    String catalogUri() {
      return rootUrl() + "/api/catalog";
    }

    Path logFile() {
      return logFile;
    }

    long pid() {
      return process.pid();
    }

    boolean isAlive() {
      return process.isAlive();
    }

    /**
     * SIGTERM, as an orchestrator stops a replica: it is marked gone (writers fail over from it)
     * and this waits for the process to exit. Returns how long that took (ms).
     */
    long terminate() {
      killed = true;
      long start = System.nanoTime();
      stop();
      return (System.nanoTime() - start) / 1_000_000;
    }

    /** True once {@link #kill()} or {@link #terminate()} was called. */
    boolean killed() {
      return killed;
    }

    /** {@code kill -9}: the process gets no chance to finish anything. Waits until it is gone. */
    void kill() {
      killed = true;
      process.destroyForcibly();
      try {
        if (!process.waitFor(10, TimeUnit.SECONDS)) {
          throw new IllegalStateException(
              "replica " + index + " (pid " + process.pid() + ") survived SIGKILL");
        }
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      }
    }

    /** SIGTERM, then SIGKILL after 15 s. */
    void stop() {
      if (!process.isAlive()) {
        return;
      }
      process.destroy();
      try {
        if (!process.waitFor(15, TimeUnit.SECONDS)) {
          process.destroyForcibly();
          process.waitFor(10, TimeUnit.SECONDS);
        }
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        process.destroyForcibly();
      }
    }

    void awaitHealthy() {
      Instant deadline = Instant.now().plus(STARTUP_TIMEOUT);
      URI health = URI.create(rootUrl() + "/healthz");
      String last = "no attempt yet";
      while (Instant.now().isBefore(deadline)) {
        if (!process.isAlive()) {
          fail(
              "replica "
                  + index
                  + " exited with code "
                  + process.exitValue()
                  + " before becoming healthy. Log ("
                  + logFile
                  + "), last lines:\n"
                  + logTail(80));
        }
        try {
          HttpResponse<String> response =
              http.send(
                  HttpRequest.newBuilder(health).timeout(Duration.ofSeconds(2)).GET().build(),
                  HttpResponse.BodyHandlers.ofString());
          if (response.statusCode() == 200) {
            return;
          }
          last = "HTTP " + response.statusCode() + ": " + response.body();
        } catch (IOException e) {
          last = e.toString();
        } catch (InterruptedException e) {
          Thread.currentThread().interrupt();
          break;
        }
        try {
          Thread.sleep(200);
        } catch (InterruptedException e) {
          Thread.currentThread().interrupt();
          break;
        }
      }
      fail(
          "replica "
              + index
              + " did not become healthy within "
              + STARTUP_TIMEOUT.toSeconds()
              + " s at "
              + health
              + " (last: "
              + last
              + "). Log ("
              + logFile
              + "), last lines:\n"
              + logTail(80));
    }

    String logTail(int lines) {
      try {
        List<String> all = Files.readAllLines(logFile, StandardCharsets.UTF_8);
        return String.join("\n", all.subList(Math.max(0, all.size() - lines), all.size()));
      } catch (IOException e) {
        return "(could not read " + logFile + ": " + e + ")";
      }
    }
  }
}
