package dev.sluice.bench.target;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * The JVM flags of the server processes: the reference gets {@code -Xmx referenceHeap} and the
 * JVM's defaults otherwise; Sluice gets what its launcher gives it ({@code server/jvm.options}), so
 * that the benchmark measures the memory and GC a user of {@code ./sluice serve} gets. Optionally a
 * Flight Recording of the whole server lifetime.
 */
public record JvmSettings(String referenceHeap, List<String> sluiceFlags, boolean flightRecording) {

  public JvmSettings {
    sluiceFlags = List.copyOf(sluiceFlags);
  }

  public List<String> referenceFlags(Path jfrFile) {
    return withRecording(List.of("-Xmx" + referenceHeap), jfrFile);
  }

  public List<String> sluiceFlags(Path jfrFile) {
    return withRecording(sluiceFlags, jfrFile);
  }

  private List<String> withRecording(List<String> base, Path jfrFile) {
    List<String> flags = new ArrayList<>(base);
    if (flightRecording) {
      flags.add("-XX:StartFlightRecording=settings=profile,dumponexit=true,filename=" + jfrFile);
    }
    return flags;
  }

  /**
   * The flags of a {@code jvm.options} file as the launcher reads it: whitespace-separated, {@code
   * #} starts a comment.
   */
  public static List<String> readOptionsFile(Path file) {
    try {
      List<String> flags = new ArrayList<>();
      for (String line : Files.readAllLines(file)) {
        int hash = line.indexOf('#');
        String content = (hash >= 0 ? line.substring(0, hash) : line).trim();
        if (!content.isEmpty()) {
          flags.addAll(Arrays.asList(content.split("\\s+")));
        }
      }
      return flags;
    } catch (IOException e) {
      throw new UncheckedIOException("Cannot read the JVM options file " + file, e);
    }
  }

  public static String javaBinary() {
    return Path.of(System.getProperty("java.home"), "bin", "java").toString();
  }
}
