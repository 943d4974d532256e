package dev.sluice.e2e;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.apache.iceberg.Schema;
import org.apache.iceberg.catalog.Namespace;
import org.apache.iceberg.catalog.TableIdentifier;
import org.apache.iceberg.rest.RESTCatalog;
import org.apache.iceberg.types.Types;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The release artifact as an operator gets it: {@code server/target/sluice-<version>.tar.gz},
 * unpacked into an empty folder and run with nothing on the PATH but a {@code java} (no Maven, no
 * npm, no shell tools), from a working folder of its own. Its systemd unit is checked by {@code
 * systemd-analyze}, with the unit's paths pointed at the unpacked copy.
 */
class ReleaseArtifactTest {

  private static final String VERSION = System.getProperty("sluice.version");
  private static final HttpClient HTTP =
      HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();
  private static Path work;
  private static Path home;

  @BeforeAll
  static void unpack() throws Exception {
    Path tarball =
        SluiceServerProcess.repoRoot().resolve("server/target/sluice-" + VERSION + ".tar.gz");
    assertThat(tarball)
        .as("the artifact `mvn package` builds (run `mvn -B verify` from the root)")
        .isRegularFile();
    work = Files.createTempDirectory("sluice-artifact-");
    run(List.of("tar", "-xzf", tarball.toString(), "-C", work.toString()), work);
    home = work.resolve("sluice-" + VERSION);
  }

  @AfterAll
  static void cleanUp() {
    if (work != null) {
      ProcessSupport.deleteRecursively(work);
    }
  }

  @Test
  void holdsTheLauncherTheLibrariesTheConfigAndTheLicense() throws IOException {
    try (Stream<Path> top = Files.list(home)) {
      assertThat(top.map(p -> p.getFileName().toString()))
          .containsExactlyInAnyOrder("bin", "lib", "conf", "systemd", "LICENSE", "NOTICE");
    }
    assertThat(home.resolve("bin/sluice")).isExecutable();
    assertThat(home.resolve("lib/sluice-server-" + VERSION + ".jar")).isRegularFile();
    assertThat(home.resolve("conf/sluice.yaml")).isRegularFile();
    assertThat(Files.readString(home.resolve("conf/jvm.options"))).contains("-Xmx");
    assertThat(Files.readString(home.resolve("LICENSE"))).contains("Apache License");
    try (Stream<Path> lib = Files.list(home.resolve("lib"))) {
      List<String> jars = lib.map(p -> p.getFileName().toString()).toList();
      assertThat(jars).allSatisfy(j -> assertThat(j).endsWith(".jar"));
      // Test-only code stays out of what is shipped.
      assertThat(jars).noneMatch(j -> j.contains("test-faults") || j.startsWith("junit"));
    }
  }

  @Test
  void servesFromAnEmptyFolderWithOnlyJavaOnThePath_createsATable_stopsCleanly() throws Exception {
    Path run = Files.createDirectories(work.resolve("run"));
    Path data = run.resolve("data");
    Path log = SluiceServerProcess.repoRoot().resolve("e2e/target/release-artifact-server.log");
    int port = ProcessSupport.freePort();

    assertThat(run(List.of(home.resolve("bin/sluice").toString(), "--version"), run))
        .contains(VERSION);

    ProcessBuilder builder =
        new ProcessBuilder(
                home.resolve("bin/sluice").toString(),
                "serve",
                "--config",
                home.resolve("conf/sluice.yaml").toString(),
                "--port",
                Integer.toString(port),
                "--data-dir",
                data.toString())
            .directory(run.toFile())
            .redirectErrorStream(true)
            .redirectOutput(log.toFile());
    onlyJava(builder, run);
    Process server = builder.start();
    try {
      String root = "http://127.0.0.1:" + port;
      awaitReady(server, root, log);

      // No bootstrap credentials given: generated, into a file only the owner may read.
      Path credentialsFile = data.resolve("root-credentials");
      assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(credentialsFile)))
          .isEqualTo("rw-------");
      Properties credentials = new Properties();
      credentials.load(Files.newBufferedReader(credentialsFile, StandardCharsets.UTF_8));
      String credential = credentials.getProperty("credential");
      assertThat(credential).isNotBlank();
      // ... and never into the log stream.
      assertThat(Files.readString(log)).doesNotContain(credentials.getProperty("client_secret"));

      HttpResponse<String> console = get(root + "/ui/");
      assertThat(console.statusCode()).as("the prebuilt console").isEqualTo(200);
      assertThat(console.body()).containsIgnoringCase("<html");

      try (RESTCatalog catalog = new RESTCatalog()) {
        catalog.initialize(
            "artifact",
            Map.of(
                "uri",
                root + "/api/catalog",
                "warehouse",
                SluiceServerProcess.WAREHOUSE,
                "credential",
                credential,
                "scope",
                "PRINCIPAL_ROLE:ALL"));
        catalog.createNamespace(Namespace.of("ops"), new HashMap<>());
        TableIdentifier id = TableIdentifier.of("ops", "events");
        catalog.createTable(
            id, new Schema(Types.NestedField.required(1, "id", Types.LongType.get())));
        assertThat(catalog.loadTable(id).schema().findField("id")).isNotNull();
      }
      assertThat(Files.readString(log))
          .as("the start line names the console")
          .contains("console at " + root + "/ui/");

      server.destroy(); // SIGTERM, as systemd and Kubernetes stop it
      assertThat(server.waitFor(30, TimeUnit.SECONDS)).as("stopped within 30 s").isTrue();
      assertThat(server.exitValue()).as("the JVM's exit on SIGTERM").isEqualTo(143);
      assertThat(Files.readString(log)).contains("Sluice stopping").contains("Sluice stopped in");
    } finally {
      server.destroyForcibly();
    }
  }

  @Test
  void systemdUnitVerifiesAndRatesOk() throws Exception {
    Path unit = work.resolve("sluice.service");
    Files.writeString(
        unit,
        Files.readString(home.resolve("systemd/sluice.service"))
            .replace("/opt/sluice/bin/sluice", home.resolve("bin/sluice").toString()));
    run(List.of("systemd-analyze", "verify", unit.toString()), work);
    // The exposure score, 0 (locked down) to 10; 1.5 and below is "OK" in systemd's own words.
    String rating =
        run(
            List.of(
                "systemd-analyze", "security", "--offline=yes", "--threshold=15", unit.toString()),
            work);
    assertThat(rating).contains("Overall exposure level for sluice.service");
  }

  /** An environment with a PATH holding only {@code java}, and HOME in the run folder. */
  private static void onlyJava(ProcessBuilder builder, Path run) throws IOException {
    Path path = Files.createDirectories(run.resolve("path"));
    Path java = path.resolve("java");
    if (!Files.exists(java)) {
      Files.createSymbolicLink(java, Path.of(System.getProperty("java.home"), "bin", "java"));
    }
    Map<String, String> env = builder.environment();
    env.clear();
    env.put("PATH", path.toString());
    env.put("HOME", run.toString());
  }

  private static void awaitReady(Process server, String root, Path log) throws Exception {
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
    while (System.nanoTime() < deadline) {
      assertThat(server.isAlive()).as("the server runs; its log: %s", log).isTrue();
      try {
        if (get(root + "/readyz").statusCode() == 200) {
          return;
        }
      } catch (IOException notYet) {
        // not listening yet
      }
      Thread.sleep(200);
    }
    throw new AssertionError("not ready within 60 s; log: " + log);
  }

  private static HttpResponse<String> get(String url) throws IOException, InterruptedException {
    return HTTP.send(
        HttpRequest.newBuilder(URI.create(url)).timeout(Duration.ofSeconds(5)).build(),
        HttpResponse.BodyHandlers.ofString());
  }

  /** Runs a command to its end (60 s at most) and answers its output; fails on a non-zero exit. */
  private static String run(List<String> command, Path dir) throws Exception {
    ProcessBuilder builder =
        new ProcessBuilder(new ArrayList<>(command))
            .directory(dir.toFile())
            .redirectErrorStream(true);
    if (command.get(0).endsWith("bin/sluice")) {
      onlyJava(builder, dir);
    }
    Process p = builder.start();
    String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    assertThat(p.waitFor(60, TimeUnit.SECONDS)).as("%s ended", command).isTrue();
    assertThat(p.exitValue()).as("%s exited 0; it printed:%n%s", command, out).isZero();
    return out;
  }
}
