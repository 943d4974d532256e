package dev.sluice.e2e;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.function.Predicate;

/**
 * The {@code sluice} command line as a user runs it: a separate JVM on the server's installed class
 * path ({@link ServerInstall}, with its class-data archive), connected to {@code server} as its
 * root principal through {@code SLUICE_*} variables (never on the command line).
 */
final class SluiceCli {
  /** One finished run: its exit status and what it printed on each stream. */
  record Run(int exit, String out, String err) {}

  private SluiceCli() {}

  /** Runs {@code args} to the end (at most five minutes). */
  static Run run(SluiceServerProcess server, Map<String, String> env, String... args) {
    return run(server, env, line -> false, args);
  }

  /**
   * Runs {@code args}, killing the process (as an interrupted user would) at the first line of its
   * output for which {@code killAt} holds; the run then ends with the kill's exit status.
   */
  static Run run(
      SluiceServerProcess server,
      Map<String, String> env,
      Predicate<String> killAt,
      String... args) {
    Path root = SluiceServerProcess.repoRoot();
    ServerInstall install =
        ServerInstall.of(
            root.resolve(SluiceServerProcess.SERVER_JAR),
            root.resolve(SluiceServerProcess.SERVER_LIB));
    List<String> command =
        new ArrayList<>(
            List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString()));
    command.addAll(install.jvmOptions());
    command.addAll(List.of("-Xmx256m", "-XX:+UseSerialGC", "-cp", install.classpath(false)));
    command.add("dev.sluice.Main");
    command.addAll(List.of(args));
    command.addAll(List.of("--base-url", server.rootUrl()));
    ProcessBuilder builder = new ProcessBuilder(command);
    builder.environment().put("SLUICE_CLIENT_ID", server.clientId());
    builder.environment().put("SLUICE_CLIENT_SECRET", server.clientSecret());
    builder.environment().putAll(env);
    try {
      Process process = builder.start();
      CompletableFuture<String> err =
          CompletableFuture.supplyAsync(() -> readAll(process.getErrorStream()));
      StringBuilder out = new StringBuilder();
      try (BufferedReader lines =
          new BufferedReader(
              new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8))) {
        for (String line = lines.readLine(); line != null; line = lines.readLine()) {
          out.append(line).append('\n');
          if (killAt.test(line)) {
            process.destroyForcibly();
            break;
          }
        }
      }
      if (!process.waitFor(5, TimeUnit.MINUTES)) {
        process.destroyForcibly();
        throw new IllegalStateException("sluice " + String.join(" ", args) + " did not end");
      }
      return new Run(process.exitValue(), out.toString(), err.join());
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException(e);
    }
  }

  private static String readAll(java.io.InputStream stream) {
    try {
      return new String(stream.readAllBytes(), StandardCharsets.UTF_8);
    } catch (IOException e) {
      return "(unreadable: " + e + ")";
    }
  }
}
