package dev.sluice.config;

import static dev.sluice.config.Bounds.between;
import static dev.sluice.config.Bounds.orDefault;

import java.nio.file.Path;
import java.time.Duration;
import java.util.Locale;
import java.util.Set;

/**
 * {@code audit}: where the audit trail goes besides the database, and how long it is kept there.
 * {@code stream} is {@code none}, {@code log} (each stored event a line of the {@code sluice.audit}
 * logger, in the log's format) or {@code file} (each a CloudEvents JSON line appended to {@code
 * file}); {@code retention}, when set, is how long events stay in the database (older ones are
 * deleted in the background).
 */
public record AuditSection(String stream, Path file, Duration retention) {
  private static final Set<String> STREAMS = Set.of("none", "log", "file");

  // After the set its constructor checks against.
  public static final AuditSection DEFAULT = new AuditSection(null, null, null);

  public AuditSection {
    stream = orDefault(stream, "none").toLowerCase(Locale.ROOT);
    if (!STREAMS.contains(stream)) {
      throw new ConfigException("audit.stream must be none, log or file, got " + stream);
    }
    if (stream.equals("file") && file == null) {
      throw new ConfigException("audit.file is required when audit.stream is file");
    }
    if (!stream.equals("file") && file != null) {
      throw new ConfigException("audit.file is set but audit.stream is " + stream + ", not file");
    }
    if (file != null) {
      file = file.toAbsolutePath().normalize();
    }
    if (retention != null) {
      between("audit.retention", retention, Duration.ofHours(1), Duration.ofDays(36_500));
    }
  }
}
