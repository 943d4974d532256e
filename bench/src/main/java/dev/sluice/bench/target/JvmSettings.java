package dev.sluice.bench.target;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * The JVM flags both servers get, so that neither has more heap or a different collector than the
 * other; optionally a Flight Recording of the whole server lifetime.
 */
public record JvmSettings(String heap, boolean flightRecording) {

  public List<String> flags(Path jfrFile) {
    List<String> flags = new ArrayList<>();
    flags.add("-Xmx" + heap);
    if (flightRecording) {
      flags.add("-XX:StartFlightRecording=settings=profile,dumponexit=true,filename=" + jfrFile);
    }
    return flags;
  }

  public static String javaBinary() {
    return Path.of(System.getProperty("java.home"), "bin", "java").toString();
  }
}
