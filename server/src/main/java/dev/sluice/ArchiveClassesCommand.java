package dev.sluice;

import java.io.IOException;
import java.io.PrintStream;
import java.lang.management.ManagementFactory;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.Callable;
import java.util.concurrent.TimeUnit;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * {@code sluice archive-classes}: writes the class-data archive that the launchers' JVMs map
 * instead of loading and verifying the classes a start needs, which is about half of a start's time
 * (docs/DEPLOYMENT.md, "Start-up"). A JVM of its own runs {@link ClassArchiveTraining} with this
 * JVM's flags and class path, without any {@code SLUICE_*} variable, and writes the archive as it
 * exits; it replaces the file only once it is complete.
 */
@Command(
    name = "archive-classes",
    mixinStandardHelpOptions = true,
    description = {
      "Record the classes a server start loads into a class-data archive (AppCDS), which later"
          + " starts map instead of loading them: a training server on a temporary data"
          + " directory and a free loopback port serves a few requests, then stops.",
      "The launchers pass -XX:SharedArchiveFile=FILE and this writes FILE; ./sluice does it after"
          + " each build. Rerun it after changing the Java runtime or the jars."
    })
final class ArchiveClassesCommand implements Callable<Integer> {
  private static final long TIMEOUT_MINUTES = 5;

  @Option(
      names = "--output",
      paramLabel = "FILE",
      description = "Where to write it (default: the -XX:SharedArchiveFile of this JVM)")
  Path output;

  @Override
  public Integer call() throws Exception {
    List<String> jvm = ManagementFactory.getRuntimeMXBean().getInputArguments();
    Optional<Path> target = Optional.ofNullable(output).or(() -> ClassArchive.named(jvm));
    PrintStream err = System.err;
    if (target.isEmpty()) {
      err.println(
          "No archive to write: give --output FILE (the launchers start Java with"
              + " -XX:SharedArchiveFile=FILE)");
      return 2;
    }
    Path archive = target.get().toAbsolutePath();
    Path folder = Files.createDirectories(archive.getParent());
    Path partial = Files.createTempFile(folder, ".sluice-", ".jsa");
    Path log = Files.createTempFile("sluice-class-archive-", ".log");
    Files.delete(partial); // the JVM writes it anew
    ProcessBuilder training =
        new ProcessBuilder(
                ClassArchive.trainingCommand(
                    Path.of(System.getProperty("java.home"), "bin", "java"),
                    jvm,
                    System.getProperty("java.class.path"),
                    partial))
            .redirectErrorStream(true)
            .redirectOutput(log.toFile());
    // The training serves its own store alone: no variable may point it at another.
    training.environment().keySet().removeIf(name -> name.startsWith("SLUICE_"));
    training.environment().put("SLUICE_ACCESS_LOG_LEVEL", "WARN");
    Process process = training.start();
    boolean ended = process.waitFor(TIMEOUT_MINUTES, TimeUnit.MINUTES);
    if (!ended) {
      process.destroyForcibly();
    }
    if (!ended || process.exitValue() != 0 || !Files.isRegularFile(partial)) {
      Files.deleteIfExists(partial);
      err.println("The training start failed; its output is in " + log + ":");
      tail(log, err);
      return 1;
    }
    Files.move(
        partial, archive, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
    Files.delete(log);
    System.out.printf("Class archive %s written (%d MB)%n", archive, Files.size(archive) >> 20);
    return 0;
  }

  private static void tail(Path log, PrintStream err) throws IOException {
    List<String> lines = Files.readAllLines(log);
    lines.subList(Math.max(0, lines.size() - 40), lines.size()).forEach(err::println);
  }
}
