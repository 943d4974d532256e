package dev.sluice;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * The JVM flags around Sluice's class-data archive (AppCDS, a JDK 17 dynamic archive): which file a
 * JVM was told to use, and the command of the training JVM that writes one. The launchers ({@code
 * ./sluice}, {@code bin/sluice}) start every JVM with {@code -XX:SharedArchiveFile=FILE} and the
 * JVM's messages about it off: a missing archive, or one another JDK or another build made, is then
 * ignored without a word and the JVM loads its classes as usual.
 */
final class ClassArchive {
  static final String USE = "-XX:SharedArchiveFile=";
  static final String WRITE = "-XX:ArchiveClassesAtExit=";

  /** Turns off the JVM's warnings about an archive it cannot use (and, when writing one, skips). */
  static final List<String> QUIET = List.of("-Xlog:cds=off", "-Xlog:cds+dynamic=off");

  private ClassArchive() {}

  /** The archive {@code jvmArguments} (a JVM's input arguments) name to use, if any. */
  static Optional<Path> named(List<String> jvmArguments) {
    Path named = null;
    for (String arg : jvmArguments) {
      if (arg.startsWith(USE) && arg.length() > USE.length()) {
        named = Path.of(arg.substring(USE.length())); // the last one wins, as in the JVM
      }
    }
    return Optional.ofNullable(named);
  }

  /**
   * The command of a JVM that runs {@link ClassArchiveTraining} and writes the archive to {@code
   * output}: {@code java}, with this JVM's flags ({@code jvmArguments}) but for the ones about
   * archives, recordings and agents (a debugger's port would clash), and {@code classPath}.
   */
  static List<String> trainingCommand(
      Path java, List<String> jvmArguments, String classPath, Path output) {
    List<String> command = new ArrayList<>(List.of(java.toString()));
    for (String arg : jvmArguments) {
      if (!arg.startsWith(USE)
          && !arg.startsWith(WRITE)
          && !arg.startsWith("-Xshare:")
          && !arg.startsWith("-Xlog:cds")
          && !arg.startsWith("-XX:StartFlightRecording")
          && !arg.startsWith("-agentlib:")
          && !arg.startsWith("-agentpath:")
          && !arg.startsWith("-javaagent:")
          && !arg.startsWith("-Djava.class.path=")) {
        command.add(arg);
      }
    }
    command.add(WRITE + output);
    command.addAll(QUIET);
    command.addAll(List.of("-cp", classPath, ClassArchiveTraining.class.getName()));
    return command;
  }
}
