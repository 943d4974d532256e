package dev.sluice.e2e;

import static org.assertj.core.api.Assertions.fail;

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
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import javax.net.ssl.SSLContext;

/**
 * A Sluice server started as a separate OS process from (a copy of) the jars that {@code mvn -pl
 * server package} leaves in {@code server/target}: on a free loopback port, with a fresh temporary
 * data directory and freshly generated root credentials. Its stdout/stderr go to {@code
 * e2e/target/<name>-server.log}.
 *
 * <p>The server is deliberately not on the test classpath: the clients under test (Spark 4.0) bring
 * their own versions of libraries the server also uses (Jackson 2.18 vs 2.19).
 */
final class SluiceServerProcess implements AutoCloseable {

  /** The project's version, which the module's POM passes to the test JVM. */
  public static final String VERSION =
      Objects.requireNonNull(
          System.getProperty("sluice.version"), "system property sluice.version (the POM sets it)");

  public static final String SERVER_JAR = "server/target/sluice-server-" + VERSION + ".jar";
  static final String SERVER_LIB = "server/target/lib";
  static final String WAREHOUSE = "quickstart";
  private static final Duration STARTUP_TIMEOUT = Duration.ofSeconds(60);
  private static final Pattern ACCESS_TOKEN =
      Pattern.compile("\"access_token\"\\s*:\\s*\"([^\"]+)\"");

  private final Process process;
  private final Path workDir;
  private final Path dataDir;
  private final Path logFile;
  private final int port;
  private final String clientId;
  private final String clientSecret;
  private final HttpClient http;
  private final String scheme;
  private final Thread shutdownHook;

  private SluiceServerProcess(
      Process process,
      Path workDir,
      Path dataDir,
      Path logFile,
      int port,
      String clientId,
      String clientSecret,
      SSLContext tls) {
    HttpClient.Builder client = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5));
    if (tls != null) {
      client.sslContext(tls);
    }
    this.http = client.build();
    this.scheme = tls == null ? "http" : "https";
    this.process = process;
    this.workDir = workDir;
    this.dataDir = dataDir;
    this.logFile = logFile;
    this.port = port;
    this.clientId = clientId;
    this.clientSecret = clientSecret;
    this.shutdownHook = new Thread(process::destroyForcibly, "sluice-e2e-server-kill");
    Runtime.getRuntime().addShutdownHook(shutdownHook);
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

  /** Starts a server and waits until {@code GET /healthz} answers 200; fails the test otherwise. */
  static SluiceServerProcess start(String name) {
    return start(name, null, Map.of());
  }

  /**
   * Like {@link #start(String)}, with {@code configYaml} (if not null) written to a file passed as
   * {@code serve --config FILE}, and {@code extraEnv} added to the server process's environment
   * (which otherwise is this JVM's, plus {@code SLUICE_BOOTSTRAP_CREDENTIALS}).
   */
  static SluiceServerProcess start(String name, String configYaml, Map<String, String> extraEnv) {
    return start(name, configYaml, extraEnv, null);
  }

  /**
   * Like {@link #start(String, String, Map)} for a server whose {@code configYaml} sets {@code
   * server.tls}: its URLs are https, and this helper's own requests trust {@code tls}.
   */
  static SluiceServerProcess start(
      String name, String configYaml, Map<String, String> extraEnv, SSLContext tls) {
    return start(name, configYaml, extraEnv, tls, List.of("-Xmx512m", "-XX:+UseSerialGC"));
  }

  /** As above, with the server JVM's own options (heap, GC, out-of-memory behaviour). */
  static SluiceServerProcess start(
      String name,
      String configYaml,
      Map<String, String> extraEnv,
      SSLContext tls,
      List<String> jvmOptions) {
    Path root = repoRoot();
    Path jar = root.resolve(SERVER_JAR);
    Path lib = root.resolve(SERVER_LIB);
    if (!Files.isRegularFile(jar) || !Files.isDirectory(lib)) {
      fail(
          "The Sluice server is not built: expected %s and %s. Build it first with "
              + "`mvn -q -B -DskipTests -pl server -am package` (from %s), or run `mvn -B verify` "
              + "from the root so the reactor packages the server before the e2e tests.",
          jar, lib, root);
    }
    try {
      Path workDir = Files.createTempDirectory("sluice-e2e-" + name + "-");
      Path dataDir = Files.createDirectory(workDir.resolve("data"));
      // From this JVM's copy of the jars, with its class-data archive (ServerInstall says why).
      ServerInstall install = ServerInstall.of(jar, lib);
      Path logDir = root.resolve("e2e/target");
      Files.createDirectories(logDir);
      Path logFile = logDir.resolve(name + "-server.log");
      int port = ProcessSupport.freePort();
      String clientId = "e2e-root";
      String clientSecret = ProcessSupport.randomHex(16);

      Path javaBin = Path.of(System.getProperty("java.home"), "bin", "java");
      List<String> command = new ArrayList<>(List.of(javaBin.toString()));
      command.addAll(install.jvmOptions());
      command.addAll(jvmOptions);
      command.addAll(
          List.of(
              "-cp",
              install.classpath(false),
              "dev.sluice.Main",
              "serve",
              "--host",
              "127.0.0.1",
              "--port",
              Integer.toString(port),
              "--data-dir",
              dataDir.toString()));
      if (configYaml != null) {
        Path configFile =
            Files.writeString(workDir.resolve("sluice.yaml"), configYaml, StandardCharsets.UTF_8);
        command.add("--config");
        command.add(configFile.toString());
      }
      ProcessBuilder builder =
          new ProcessBuilder(command)
              .directory(dataDir.toFile())
              .redirectErrorStream(true)
              .redirectOutput(logFile.toFile());
      builder.environment().putAll(extraEnv);
      builder.environment().put("SLUICE_BOOTSTRAP_CREDENTIALS", clientId + ":" + clientSecret);
      Process process = builder.start();
      SluiceServerProcess server =
          new SluiceServerProcess(
              process, workDir, dataDir, logFile, port, clientId, clientSecret, tls);
      server.awaitHealthy();
      return server;
    } catch (IOException e) {
      throw new UncheckedIOException("could not start the Sluice server", e);
    }
  }

  private void awaitHealthy() {
    Instant deadline = Instant.now().plus(STARTUP_TIMEOUT);
    URI health = URI.create(rootUrl() + "/healthz");
    String lastProblem = "no attempt yet";
    while (Instant.now().isBefore(deadline)) {
      if (!process.isAlive()) {
        String tail = logTail(80);
        close();
        fail(
            "The Sluice server exited with code %d before becoming healthy. Log (%s), last lines:%n%s",
            process.exitValue(), logFile, tail);
      }
      try {
        HttpResponse<String> response =
            http.send(
                HttpRequest.newBuilder(health).timeout(Duration.ofSeconds(2)).GET().build(),
                HttpResponse.BodyHandlers.ofString());
        if (response.statusCode() == 200) {
          return;
        }
        lastProblem = "HTTP " + response.statusCode() + ": " + response.body();
      } catch (IOException e) {
        lastProblem = e.toString();
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        break;
      }
      sleep(200);
    }
    String tail = logTail(80);
    close();
    fail(
        "The Sluice server did not become healthy within %d s at %s (last: %s). Log (%s), last lines:%n%s",
        STARTUP_TIMEOUT.toSeconds(), health, lastProblem, logFile, tail);
  }

  String rootUrl() {
    return scheme + "://127.0.0.1:" + port;
  }

  /** The Iceberg REST catalog base URI, as clients are configured with it. */
  String catalogUri() {
    return rootUrl() + "/api/catalog";
  }

  String clientId() {
    return clientId;
  }

  String clientSecret() {
    return clientSecret;
  }

  /** {@code <id>:<secret>}, the form of Iceberg's {@code credential} catalog property. */
  String credential() {
    return clientId + ":" + clientSecret;
  }

  Path dataDir() {
    return dataDir;
  }

  /** Whether the server process still runs. */
  boolean alive() {
    return process.isAlive();
  }

  /** The server process's resident set size in KiB (Linux {@code /proc}), or -1 once it is gone. */
  long rssKib() {
    try {
      for (String line : Files.readAllLines(Path.of("/proc/" + process.pid() + "/status"))) {
        if (line.startsWith("VmRSS:")) {
          return Long.parseLong(line.replaceAll("[^0-9]", ""));
        }
      }
    } catch (IOException e) {
      return -1;
    }
    return -1;
  }

  Path logFile() {
    return logFile;
  }

  /** Obtains a bearer token for root through the OAuth2 client-credentials endpoint. */
  String fetchToken() {
    return fetchToken(clientId, clientSecret);
  }

  /** Obtains a bearer token for any principal through the OAuth2 client-credentials endpoint. */
  String fetchToken(String id, String secret) {
    return token(
        Map.of(
            "grant_type",
            "client_credentials",
            "client_id",
            id,
            "client_secret",
            secret,
            "scope",
            "PRINCIPAL_ROLE:ALL"));
  }

  /** The access token the token endpoint answers to {@code form}; fails on anything but 200. */
  String token(Map<String, String> form) {
    String body =
        form.entrySet().stream()
            .map(
                e ->
                    URLEncoder.encode(e.getKey(), StandardCharsets.UTF_8)
                        + "="
                        + URLEncoder.encode(e.getValue(), StandardCharsets.UTF_8))
            .collect(Collectors.joining("&"));
    HttpRequest request =
        HttpRequest.newBuilder(URI.create(catalogUri() + "/v1/oauth/tokens"))
            .timeout(Duration.ofSeconds(10))
            .header("Content-Type", "application/x-www-form-urlencoded")
            .POST(HttpRequest.BodyPublishers.ofString(body))
            .build();
    try {
      HttpResponse<String> response = http.send(request, HttpResponse.BodyHandlers.ofString());
      if (response.statusCode() != 200) {
        fail("POST %s answered %d: %s", request.uri(), response.statusCode(), response.body());
      }
      Matcher m = ACCESS_TOKEN.matcher(response.body());
      if (!m.find()) {
        fail("POST %s answered 200 without an access_token: %s", request.uri(), response.body());
      }
      return m.group(1);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException(e);
    }
  }

  /**
   * Sends {@code method} to {@code rootUrl() + path} with a bearer token and, if not null, a JSON
   * body; returns the response whatever its status.
   */
  HttpResponse<String> send(String method, String path, String bearerToken, String jsonBody) {
    return send(method, path, bearerToken, jsonBody, Map.of());
  }

  /** {@link #send(String, String, String, String)} with extra request headers. */
  HttpResponse<String> send(
      String method,
      String path,
      String bearerToken,
      String jsonBody,
      Map<String, String> headers) {
    HttpRequest.Builder request =
        HttpRequest.newBuilder(URI.create(rootUrl() + path))
            .timeout(Duration.ofSeconds(30))
            .header("Authorization", "Bearer " + bearerToken)
            .header("Accept", "application/json");
    headers.forEach(request::header);
    if (jsonBody != null) {
      request
          .header("Content-Type", "application/json")
          .method(method, HttpRequest.BodyPublishers.ofString(jsonBody, StandardCharsets.UTF_8));
    } else {
      request.method(method, HttpRequest.BodyPublishers.noBody());
    }
    try {
      return http.send(request.build(), HttpResponse.BodyHandlers.ofString());
    } catch (IOException e) {
      throw new UncheckedIOException(method + " " + path + " failed", e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException(e);
    }
  }

  /**
   * An unauthenticated GET (health, {@code /metrics}); returns the response whatever its status.
   */
  HttpResponse<String> getPublic(String path) {
    HttpRequest request =
        HttpRequest.newBuilder(URI.create(rootUrl() + path))
            .timeout(Duration.ofSeconds(30))
            .GET()
            .build();
    try {
      return http.send(request, HttpResponse.BodyHandlers.ofString());
    } catch (IOException e) {
      throw new UncheckedIOException("GET " + path + " failed", e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException(e);
    }
  }

  /** The last {@code lines} lines of the server's log. */
  String logTail(int lines) {
    try {
      List<String> all = Files.readAllLines(logFile, StandardCharsets.UTF_8);
      return String.join(
          System.lineSeparator(), all.subList(Math.max(0, all.size() - lines), all.size()));
    } catch (IOException e) {
      return "(could not read " + logFile + ": " + e + ")";
    }
  }

  @Override
  public void close() {
    if (process.isAlive()) {
      process.destroy(); // SIGTERM: lets the server shut down cleanly
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
    try {
      Runtime.getRuntime().removeShutdownHook(shutdownHook);
    } catch (IllegalStateException ignored) {
      // already shutting down
    }
    ProcessSupport.deleteRecursively(workDir);
  }

  private static void sleep(long millis) {
    try {
      Thread.sleep(millis);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }
}
