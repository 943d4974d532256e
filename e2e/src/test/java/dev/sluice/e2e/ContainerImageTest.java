package dev.sluice.e2e;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.apache.iceberg.Schema;
import org.apache.iceberg.catalog.Namespace;
import org.apache.iceberg.catalog.TableIdentifier;
import org.apache.iceberg.rest.RESTCatalog;
import org.apache.iceberg.types.Types;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The container image as an operator runs it: {@code scripts/image.sh} builds it from the release
 * artifact and Debian's packages (no registry), podman runs it, and it serves as a user that is not
 * root, answers its health check, takes a table through {@code RESTCatalog} and stops cleanly on
 * SIGTERM. Needs root's podman and mmdebstrap (scripts/test-all.sh installs them); fails without.
 *
 * <p>Two flags are this machine's, not the image's: {@code --runtime runc} (crun refuses this
 * host's hybrid cgroups; for the build too, through {@code OCI_RUNTIME}) and {@code --ulimit}
 * within the host's hard limits (podman's defaults are above them, and setting those is refused).
 */
class ContainerImageTest {
  private static final String VERSION = System.getProperty("sluice.version");
  private static final String ROOT_ID = "container-root";
  private static final String ROOT_SECRET = ProcessSupport.randomHex(16);
  private static final HttpClient HTTP =
      HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();
  private static final ObjectMapper JSON = new ObjectMapper();
  private static String image;
  private static String container;

  @BeforeAll
  static void buildAndStart() throws Exception {
    String built =
        run(
            List.of(
                "env",
                "OCI_RUNTIME=runc", // its build runs the server once (class archive)
                SluiceServerProcess.repoRoot().resolve("scripts/image.sh").toString()),
            Duration.ofMinutes(5));
    image = built.strip().lines().reduce((a, b) -> b).orElseThrow();
    assertThat(image).isEqualTo("localhost/sluice:" + VERSION);
    List<String> command = new ArrayList<>(podman("run", "--detach"));
    command.addAll(
        List.of(
            "--ulimit",
            "nofile=" + hostLimit("-Hn") + ":" + hostLimit("-Hn"),
            "--ulimit",
            "nproc=4096:4096", // per user id: the server's alone in it, some 250 threads
            "--publish",
            "127.0.0.1::8181",
            "--env",
            "SLUICE_BOOTSTRAP_CREDENTIALS=" + ROOT_ID + ":" + ROOT_SECRET,
            image));
    container = run(command, Duration.ofMinutes(1)).strip();
  }

  @AfterAll
  static void remove() throws Exception {
    if (container != null) {
      run(podman("rm", "--force", container), Duration.ofMinutes(1));
    }
  }

  @Test
  void theImageRunsAsItsOwnUserWithAHealthCheckAndServesATableThenStopsOnSigterm()
      throws Exception {
    JsonNode inspected =
        JSON.readTree(run(podman("image", "inspect", image), Duration.ofSeconds(30))).get(0);
    JsonNode config = inspected.get("Config");
    assertThat(config.get("User").asText()).isEqualTo("10001:10001");
    assertThat(config.get("Entrypoint").get(0).asText()).isEqualTo("/opt/sluice/bin/sluice");
    // podman shows the (Docker-format) image's health check beside its Config.
    assertThat(inspected.get("Healthcheck").get("Test").toString()).contains("/healthz");
    assertThat(config.get("ExposedPorts").has("8181/tcp")).isTrue();

    String published = run(podman("port", container, "8181"), Duration.ofSeconds(30)).strip();
    String root = "http://" + published.lines().findFirst().orElseThrow();
    awaitReady(root);
    assertThat(run(podman("exec", container, "id", "-u"), Duration.ofSeconds(30)).strip())
        .as("the server's user in the container")
        .isEqualTo("10001");
    // The image's own check, run once by hand (no systemd here to run it on a timer).
    run(podman("healthcheck", "run", container), Duration.ofSeconds(30));

    try (RESTCatalog catalog = new RESTCatalog()) {
      catalog.initialize(
          "container",
          Map.of(
              "uri",
              root + "/api/catalog",
              "warehouse",
              SluiceServerProcess.WAREHOUSE,
              "credential",
              ROOT_ID + ":" + ROOT_SECRET,
              "scope",
              "PRINCIPAL_ROLE:ALL"));
      catalog.createNamespace(Namespace.of("ops"), new HashMap<>());
      TableIdentifier id = TableIdentifier.of("ops", "events");
      catalog.createTable(
          id, new Schema(Types.NestedField.required(1, "id", Types.LongType.get())));
      assertThat(catalog.loadTable(id).location()).startsWith("file:/var/lib/sluice/warehouse/");
    }

    run(podman("stop", "--time", "30", container), Duration.ofMinutes(1));
    String state =
        run(
            podman("inspect", "--format", "{{.State.ExitCode}}", container),
            Duration.ofSeconds(30));
    assertThat(state.strip()).as("the JVM's exit on SIGTERM").isEqualTo("143");
    String logs = logs();
    assertThat(logs)
        .contains("\"message\":\"Sluice stopping")
        .contains("Sluice stopped in")
        .doesNotContain(ROOT_SECRET);
  }

  /** The container's log: podman prints what the server wrote to each stream on that stream. */
  private static String logs() throws Exception {
    Path both = Files.createTempFile("podman-", ".log");
    try {
      Process p =
          new ProcessBuilder(podman("logs", container))
              .redirectErrorStream(true)
              .redirectOutput(both.toFile())
              .start();
      assertThat(p.waitFor(30, TimeUnit.SECONDS)).isTrue();
      return Files.readString(both);
    } finally {
      Files.deleteIfExists(both);
    }
  }

  /** {@code podman <args>} with this machine's runtime (see the class comment). */
  private static List<String> podman(String... args) {
    List<String> command = new ArrayList<>(List.of("podman", "--runtime", "runc"));
    command.addAll(List.of(args));
    return command;
  }

  /** A hard limit of this host ({@code ulimit -Hn}: open files). */
  private static String hostLimit(String flag) throws Exception {
    return run(List.of("bash", "-c", "ulimit " + flag), Duration.ofSeconds(10)).strip();
  }

  private static void awaitReady(String root) throws Exception {
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
    while (System.nanoTime() < deadline) {
      try {
        HttpResponse<String> ready =
            HTTP.send(
                HttpRequest.newBuilder(URI.create(root + "/readyz"))
                    .timeout(Duration.ofSeconds(5))
                    .build(),
                HttpResponse.BodyHandlers.ofString());
        if (ready.statusCode() == 200) {
          return;
        }
      } catch (IOException notYet) {
        // not listening yet
      }
      Thread.sleep(200);
    }
    throw new AssertionError("not ready within 60 s; its log:\n" + logs());
  }

  /**
   * Runs a command to its end and answers its standard output (podman's warnings go to its standard
   * error: about systemd timers for health checks, which this machine has none of); fails on a
   * non-zero exit.
   */
  private static String run(List<String> command, Duration limit) throws Exception {
    Path errors = Files.createTempFile("podman-", ".err");
    try {
      Process p = new ProcessBuilder(command).redirectError(errors.toFile()).start();
      String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
      assertThat(p.waitFor(limit.toSeconds(), TimeUnit.SECONDS)).as("%s ended", command).isTrue();
      assertThat(p.exitValue())
          .as("%s exited 0; it printed:%n%s%n%s", command, out, Files.readString(errors))
          .isZero();
      return out;
    } finally {
      Files.deleteIfExists(errors);
    }
  }

  @Test
  void theComposeFileIsValidCompose() throws Exception {
    // Compose's own check of the file's schema and variables (Debian's docker-compose; it runs
    // nothing). Without the two secrets it refuses, as the file says it must.
    Path compose = SluiceServerProcess.repoRoot().resolve("docs/deploy/compose.yaml");
    ProcessBuilder check =
        new ProcessBuilder("docker-compose", "-f", compose.toString(), "config", "--quiet")
            .redirectErrorStream(true);
    check.environment().put("SLUICE_DB_PASSWORD", "x");
    check.environment().put("SLUICE_ROOT_SECRET", "y");
    Process valid = check.start();
    String out = new String(valid.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    assertThat(valid.waitFor(60, TimeUnit.SECONDS)).isTrue();
    assertThat(valid.exitValue()).as(out).isZero();
    check.environment().remove("SLUICE_ROOT_SECRET");
    Process refused = check.start();
    String why = new String(refused.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    assertThat(refused.waitFor(60, TimeUnit.SECONDS)).isTrue();
    assertThat(refused.exitValue()).isNotZero();
    assertThat(why).contains("SLUICE_ROOT_SECRET");
  }
}
