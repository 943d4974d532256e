package dev.sluice.bench.target;

import dev.sluice.bench.reference.ReferenceServerMain;
import java.io.File;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;

/**
 * Starts Iceberg's reference REST server ({@link ReferenceServerMain}) from this module's own
 * classpath: JdbcCatalog on a SQLite file and a local warehouse, no authentication.
 */
public final class ReferenceLauncher {
  private ReferenceLauncher() {}

  public static RunningServer start(JvmSettings jvm, Path workDir)
      throws IOException, InterruptedException {
    Path dir = Files.createDirectories(workDir.resolve("reference"));
    Path warehouse = Files.createDirectories(dir.resolve("warehouse"));
    Path jfr = dir.resolve("reference.jfr");
    int port = FreePort.pick();
    List<String> command = new ArrayList<>();
    command.add(JvmSettings.javaBinary());
    command.addAll(jvm.referenceFlags(jfr));
    // Per-request logging is off on both servers (Sluice: SLUICE_ACCESS_LOG_LEVEL=WARN).
    command.add("-Dorg.slf4j.simpleLogger.defaultLogLevel=warn");
    command.add("-cp");
    command.add(absoluteClassPath());
    command.add(ReferenceServerMain.class.getName());
    Map<String, String> env =
        Map.of(
            "CATALOG_URI",
            "jdbc:sqlite:file:" + dir.resolve("catalog.db"),
            "CATALOG_WAREHOUSE",
            warehouse.toString(),
            "CATALOG_REST_HOST",
            "127.0.0.1",
            "CATALOG_REST_PORT",
            Integer.toString(port));
    ServerProcess process =
        ServerProcess.start("reference", command, env, dir, dir.resolve("server.log"));
    try {
      process.awaitReady("127.0.0.1", port, "/v1/config", 60_000);
    } catch (IOException | InterruptedException e) {
      process.close();
      throw e;
    }
    return new RunningServer(
        process,
        new Endpoint("reference", "127.0.0.1", port, "", "", null),
        jvm.flightRecording() ? jfr : null);
  }

  /** This JVM's class path with absolute entries: the server runs in its own working directory. */
  private static String absoluteClassPath() {
    return Arrays.stream(System.getProperty("java.class.path").split(File.pathSeparator))
        .map(entry -> Path.of(entry).toAbsolutePath().toString())
        .collect(Collectors.joining(File.pathSeparator));
  }
}
