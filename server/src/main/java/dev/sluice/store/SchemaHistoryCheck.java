package dev.sluice.store;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.UncheckedIOException;
import java.math.BigInteger;
import java.net.JarURLConnection;
import java.net.URISyntaxException;
import java.net.URL;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.jar.JarEntry;
import java.util.jar.JarFile;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import java.util.zip.CRC32;
import javax.sql.DataSource;

/**
 * Whether a database's schema history already records exactly the migrations this build bundles:
 * each one, applied successfully, with the checksum its file has now, and nothing else. Flyway
 * would then apply nothing and find nothing to report, so a start skips it: configuring Flyway and
 * validating the history were about a sixth of the CPU of a start on an existing store. Whenever
 * anything differs, cannot be read or cannot be listed (a migration pending or failed, an edited
 * file, a newer schema, a history Flyway keeps elsewhere), the answer is empty and Flyway decides.
 */
final class SchemaHistoryCheck {
  /** Flyway's default history table, where {@link SchemaMigrations} keeps it. */
  static final String HISTORY = "flyway_schema_history";

  private static final String FOLDER = "db/migration";
  private static final Pattern SCRIPT = Pattern.compile("V([0-9]+(?:\\.[0-9]+)*)__(\\w+)\\.sql");

  /** Flyway's order of versions: by each dotted part, as a number. */
  private static final Comparator<Migration> BY_VERSION =
      (a, b) -> {
        String[] x = a.version().split("\\.");
        String[] y = b.version().split("\\.");
        for (int i = 0; i < Math.max(x.length, y.length); i++) {
          int c =
              (i < x.length ? new BigInteger(x[i]) : BigInteger.ZERO)
                  .compareTo(i < y.length ? new BigInteger(y[i]) : BigInteger.ZERO);
          if (c != 0) {
            return c;
          }
        }
        return 0;
      };

  /** One migration file: what Flyway records for it when it is applied. */
  record Migration(String version, String description, String script, int checksum) {}

  private SchemaHistoryCheck() {}

  /**
   * The version the schema is at when its history records exactly the migrations bundled on {@code
   * loader}'s class path; empty otherwise (and when the history cannot be read).
   */
  static Optional<String> current(DataSource dataSource, ClassLoader loader) {
    try (Connection connection = dataSource.getConnection()) {
      String schema = connection.getSchema();
      // Looked up before it is read: on a new database the query's error would land in H2's
      // trace file.
      try (ResultSet tables =
          connection.getMetaData().getTables(null, schema, HISTORY, new String[] {"TABLE"})) {
        if (schema == null || !tables.next()) {
          return Optional.empty();
        }
      }
      List<Migration> bundled = bundled(loader); // read once the history is known to exist
      if (bundled.isEmpty()) {
        return Optional.empty();
      }
      Map<String, Migration> expected = new HashMap<>();
      bundled.forEach(m -> expected.put(m.version(), m));
      int rows = 0;
      try (Statement statement = connection.createStatement();
          ResultSet history =
              statement.executeQuery(
                  "SELECT \"version\", \"description\", \"type\", \"script\", \"checksum\","
                      + " \"success\" FROM \""
                      + schema.replace("\"", "\"\"")
                      + "\".\""
                      + HISTORY
                      + "\"")) {
        while (history.next()) {
          String version = history.getString(1);
          String type = history.getString(3);
          if (version == null && ("TABLE".equals(type) || "SCHEMA".equals(type))) {
            continue; // Flyway's marker: it created the history table (or the schema) here
          }
          rows++;
          Migration m = expected.get(version);
          int checksum = history.getInt(5);
          boolean hasChecksum = !history.wasNull();
          boolean recorded =
              m != null
                  && hasChecksum
                  && m.checksum() == checksum
                  && m.description().equals(history.getString(2))
                  && "SQL".equals(type)
                  && m.script().equals(history.getString(4))
                  && history.getBoolean(6);
          if (!recorded) {
            return Optional.empty();
          }
        }
      }
      return rows == expected.size()
          ? Optional.of(Collections.max(bundled, BY_VERSION).version())
          : Optional.empty();
    } catch (SQLException e) {
      return Optional.empty();
    }
  }

  /**
   * The migrations in {@code db/migration} on {@code loader}'s class path, or empty when they are
   * not in exactly one jar or folder this can list.
   */
  static List<Migration> bundled(ClassLoader loader) {
    try {
      List<URL> folders = Collections.list(loader.getResources(FOLDER));
      if (folders.size() != 1) {
        return List.of();
      }
      List<Migration> migrations = new ArrayList<>();
      for (String name : scripts(folders.get(0))) {
        Matcher m = SCRIPT.matcher(name);
        if (!m.matches()) {
          return List.of(); // a file Flyway reads otherwise (repeatable, callback): Flyway decides
        }
        try (InputStream in = loader.getResourceAsStream(FOLDER + "/" + name)) {
          if (in == null) {
            return List.of();
          }
          migrations.add(
              new Migration(m.group(1), m.group(2).replace('_', ' '), name, checksum(in)));
        }
      }
      return migrations;
    } catch (IOException | UncheckedIOException | URISyntaxException e) {
      return List.of();
    }
  }

  /** The file names directly in the folder at {@code url} (a jar's or a directory's). */
  private static List<String> scripts(URL url) throws IOException, URISyntaxException {
    List<String> names = new ArrayList<>();
    if (url.getProtocol().equals("jar")) {
      JarURLConnection connection = (JarURLConnection) url.openConnection();
      connection.setUseCaches(false);
      try (JarFile jar = connection.getJarFile()) {
        String prefix = FOLDER + "/";
        for (JarEntry entry : Collections.list(jar.entries())) {
          String rest =
              entry.getName().startsWith(prefix) ? entry.getName().substring(prefix.length()) : "";
          if (!rest.isEmpty() && !rest.contains("/")) {
            names.add(rest);
          }
        }
      }
    } else if (url.getProtocol().equals("file")) {
      try (Stream<Path> files = Files.list(Path.of(url.toURI()))) {
        files.filter(Files::isRegularFile).forEach(f -> names.add(f.getFileName().toString()));
      }
    }
    return names;
  }

  /**
   * Flyway's checksum of a migration: the CRC-32 of its UTF-8 lines without their line breaks, a
   * byte-order mark left out (SchemaHistoryCheckTest holds it to what Flyway records).
   */
  static int checksum(InputStream in) throws IOException {
    CRC32 crc = new CRC32();
    BufferedReader reader = new BufferedReader(new InputStreamReader(in, StandardCharsets.UTF_8));
    String line = reader.readLine();
    if (line != null && line.startsWith("\uFEFF")) {
      line = line.substring(1);
    }
    for (; line != null; line = reader.readLine()) {
      crc.update(line.getBytes(StandardCharsets.UTF_8));
    }
    return (int) crc.getValue();
  }
}
