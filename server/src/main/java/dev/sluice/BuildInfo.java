package dev.sluice;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.util.Properties;
import picocli.CommandLine;

/**
 * What this build is: its version, written into {@code dev/sluice/build.properties} by Maven's
 * resource filtering, so that {@code --version}, the start line and {@code sluice_build_info} say
 * the same.
 */
public final class BuildInfo {
  private static final String VERSION = load();

  private BuildInfo() {}

  public static String version() {
    return VERSION;
  }

  private static String load() {
    try (InputStream in = BuildInfo.class.getResourceAsStream("build.properties")) {
      if (in == null) {
        return "unknown"; // run from sources no build has filtered
      }
      Properties properties = new Properties();
      properties.load(in);
      String version = properties.getProperty("version", "unknown");
      return version.startsWith("${") ? "unknown" : version;
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** {@code sluice --version}. */
  public static final class VersionProvider implements CommandLine.IVersionProvider {
    @Override
    public String[] getVersion() {
      return new String[] {"sluice " + version()};
    }
  }
}
