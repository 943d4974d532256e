package dev.sluice.audit;

import static java.util.Objects.requireNonNull;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.sluice.store.AuditEvent;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.FileSystems;
import java.nio.file.Files;
import java.nio.file.OpenOption;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.FileAttribute;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import java.util.stream.Collectors;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.slf4j.spi.LoggingEventBuilder;

/**
 * Where stored audit events go besides the database ({@code audit.stream}): nowhere, the {@code
 * sluice.audit} logger (one line per event, its fields as the log's own fields), or a file of JSON
 * lines, each a CloudEvents 1.0 event in structured mode whose {@code data} is the event as the
 * management API shows it ({@link AuditJson}). The audit writer calls it after each write to the
 * database, so the stream carries exactly what was stored (merged decisions once, with their
 * count), in order, and never on the request path.
 */
public interface AuditStream extends AutoCloseable {
  /** The CloudEvents {@code type} of a stored decision. */
  String EVENT_TYPE = "dev.sluice.audit.decision";

  AuditStream NONE = events -> {};

  /** Passes on {@code events}, just stored; throws {@link UncheckedIOException} if it cannot. */
  void write(List<AuditEvent> events);

  @Override
  default void close() {}

  /** Each event a line of the {@code sluice.audit} logger at INFO, its fields as key-values. */
  static AuditStream log() {
    Logger log = LoggerFactory.getLogger("sluice.audit");
    return events -> {
      for (AuditEvent e : events) {
        LoggingEventBuilder line = log.atInfo();
        for (Map.Entry<String, Object> field : AuditJson.fields(e).entrySet()) {
          Object value =
              field.getValue() instanceof List<?> list
                  ? list.stream().map(String::valueOf).collect(Collectors.joining(","))
                  : field.getValue();
          line = line.addKeyValue(field.getKey(), value);
        }
        line.log("audit");
      }
    };
  }

  /**
   * CloudEvents JSON lines appended to {@code file} (created readable by the server's user only).
   */
  static AuditStream file(Path file, String source) {
    return new FileStream(file, source);
  }

  /** The CloudEvents 1.0 structured-mode envelope of {@code e}. */
  static Map<String, Object> cloudEvent(AuditEvent e, String source) {
    Map<String, Object> out = new LinkedHashMap<>();
    out.put("specversion", "1.0");
    out.put("type", EVENT_TYPE);
    out.put("source", source);
    // Stored ids are the database's, which the writer does not read back: a fresh one per line.
    out.put("id", UUID.randomUUID().toString());
    out.put("time", Instant.ofEpochMilli(e.time()).toString());
    out.put("subject", e.action());
    out.put("datacontenttype", "application/json");
    Map<String, Object> data = AuditJson.fields(e);
    data.remove("id");
    out.put("data", data);
    return out;
  }

  /** Appends lines; one write and one flush to the OS per batch. */
  final class FileStream implements AuditStream {
    private static final ObjectMapper JSON = new ObjectMapper();
    private final FileChannel channel;
    private final String source;

    private FileStream(Path file, String source) {
      this.source = requireNonNull(source, "source");
      Set<OpenOption> options =
          Set.of(StandardOpenOption.CREATE, StandardOpenOption.APPEND, StandardOpenOption.WRITE);
      try {
        Files.createDirectories(file.toAbsolutePath().getParent());
        FileAttribute<?>[] attrs =
            FileSystems.getDefault().supportedFileAttributeViews().contains("posix")
                ? new FileAttribute<?>[] {
                  PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rw-------"))
                }
                : new FileAttribute<?>[0];
        this.channel = FileChannel.open(file, options, attrs);
      } catch (IOException e) {
        throw new UncheckedIOException("Cannot open the audit stream file " + file, e);
      }
    }

    @Override
    public void write(List<AuditEvent> events) {
      StringBuilder lines = new StringBuilder(events.size() * 512);
      for (AuditEvent e : events) {
        try {
          lines.append(JSON.writeValueAsString(cloudEvent(e, source))).append('\n');
        } catch (JsonProcessingException impossible) {
          throw new IllegalStateException(impossible); // maps of strings and numbers
        }
      }
      ByteBuffer bytes = ByteBuffer.wrap(lines.toString().getBytes(StandardCharsets.UTF_8));
      try {
        while (bytes.hasRemaining()) {
          channel.write(bytes);
        }
      } catch (IOException e) {
        throw new UncheckedIOException(e);
      }
    }

    @Override
    public void close() {
      try {
        channel.close();
      } catch (IOException ignored) {
        // closing at shutdown: nothing left to do
      }
    }
  }
}
