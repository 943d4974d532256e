package dev.sluice.bench.target;

import java.io.IOException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * Starts Sluice from {@code server/target} (built by bench/run.sh) under a fresh data directory,
 * with known root credentials: on its embedded default (an H2 file and a FILE warehouse), or with a
 * YAML config (another database, credential sources for S3 vending).
 */
public final class SluiceLauncher {
  public static final String ROOT_CLIENT_ID = "bench-root";
  public static final String ROOT_SECRET = "bench-root-secret";

  private SluiceLauncher() {}

  /**
   * {@code name}: the process's name and its directory under {@code workDir}; {@code config}: YAML
   * for {@code --config}, or null for none. {@code ${DATA_DIR}} in it is replaced by the instance's
   * data directory.
   */
  public static RunningServer start(
      JvmSettings jvm, Path repoRoot, Path workDir, String name, String config)
      throws IOException, InterruptedException {
    Path dir = Files.createDirectories(workDir.resolve(name));
    Path data = dir.resolve("data");
    Path jfr = dir.resolve(name + ".jfr");
    int port = FreePort.pick();
    Path target = repoRoot.resolve("server/target");
    Path jar = serverJar(target);
    List<String> command = new ArrayList<>();
    command.add(JvmSettings.javaBinary());
    command.addAll(jvm.sluiceFlags(jfr));
    command.addAll(classArchiveFlags(jar));
    command.add("-cp");
    command.add(jar + ":" + target.resolve("lib") + "/*");
    command.add("dev.sluice.Main");
    command.addAll(
        List.of(
            "serve",
            "--host",
            "127.0.0.1",
            "--port",
            Integer.toString(port),
            "--data-dir",
            data.toString()));
    if (config != null) {
      Path file = dir.resolve("sluice.yaml");
      Files.writeString(file, config.replace("${DATA_DIR}", data.toString()));
      command.addAll(List.of("--config", file.toString()));
    }
    Map<String, String> env =
        Map.of(
            "SLUICE_BOOTSTRAP_CREDENTIALS",
            ROOT_CLIENT_ID + ":" + ROOT_SECRET,
            "SLUICE_ACCESS_LOG_LEVEL",
            "WARN");
    ServerProcess process = ServerProcess.start(name, command, env, dir, dir.resolve("server.log"));
    try {
      process.awaitReady("127.0.0.1", port, "/healthz", 120_000);
    } catch (IOException | InterruptedException e) {
      process.close();
      throw e;
    }
    return new RunningServer(
        process,
        new Endpoint(name, "127.0.0.1", port, "/api/catalog", "", null),
        jvm.flightRecording() ? jfr : null);
  }

  /**
   * The flags with which {@code ./sluice} maps its class-data archive, beside the server jar
   * ({@code sluice-server-<version>.jsa}; scripts/class-archive.sh makes it, bench/run.sh runs
   * that), when there is one: Sluice then starts as {@code ./sluice serve} starts it. The JVM
   * ignores an archive of another build or Java without a word, as it does for the launcher.
   */
  static List<String> classArchiveFlags(Path jar) {
    String name = jar.getFileName().toString();
    Path archive = jar.resolveSibling(name.substring(0, name.length() - ".jar".length()) + ".jsa");
    return Files.isRegularFile(archive)
        ? List.of("-XX:SharedArchiveFile=" + archive, "-Xlog:cds=off", "-Xlog:cds+dynamic=off")
        : List.of();
  }

  private static Path serverJar(Path target) throws IOException {
    try (DirectoryStream<Path> jars = Files.newDirectoryStream(target, "sluice-server-*.jar")) {
      for (Path jar : jars) {
        String name = jar.getFileName().toString();
        if (!name.endsWith("-tests.jar")
            && !name.endsWith("-sources.jar")
            && !name.endsWith("-test-faults.jar")) {
          return jar;
        }
      }
    } catch (java.nio.file.NoSuchFileException e) {
      // reported below
    }
    throw new IOException(
        "No Sluice server jar in " + target + ": build it first (bench/run.sh does)");
  }
}
