package dev.sluice.store;

import static java.util.Objects.requireNonNull;

import com.zaxxer.hikari.util.DriverDataSource;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.Enumeration;
import java.util.List;
import java.util.Properties;
import java.util.stream.Stream;
import java.util.zip.ZipEntry;
import java.util.zip.ZipFile;
import java.util.zip.ZipOutputStream;

/**
 * Backup and restore of the embedded default: the H2 file (through H2's own {@code BACKUP TO}, a
 * consistent copy) and the local warehouse beside it, in one zip ({@code database/…}, {@code
 * warehouse/…}). PostgreSQL has its own tools (base backups and WAL archiving): refused here.
 */
public final class EmbeddedBackup {
  private static final String DATABASE = "database/";
  private static final String WAREHOUSE = "warehouse/";

  private EmbeddedBackup() {}

  /** Writes the backup to {@code zip}, which must not exist yet; returns the files it holds. */
  public static int backup(DatabaseConfig database, Path warehouse, Path zip) {
    requireEmbedded(database);
    requireNonNull(warehouse, "warehouse");
    if (Files.exists(zip)) {
      throw new IllegalArgumentException("The backup file exists already: " + zip);
    }
    Path partial = zip.resolveSibling(zip.getFileName() + ".partial");
    Path databaseZip = zip.resolveSibling(zip.getFileName() + ".database");
    try {
      try (Connection c =
              new DriverDataSource(
                      database.jdbcUrl(),
                      null,
                      new Properties(),
                      database.user(),
                      database.password())
                  .getConnection();
          Statement s = c.createStatement()) {
        s.execute("BACKUP TO '" + databaseZip.toString().replace("'", "''") + "'");
      }
      int files = 0;
      try (OutputStream out = Files.newOutputStream(partial);
          ZipOutputStream zipOut = new ZipOutputStream(out);
          ZipFile db = new ZipFile(databaseZip.toFile())) {
        for (Enumeration<? extends ZipEntry> e = db.entries(); e.hasMoreElements(); ) {
          ZipEntry entry = e.nextElement();
          zipOut.putNextEntry(new ZipEntry(DATABASE + entry.getName()));
          try (InputStream in = db.getInputStream(entry)) {
            in.transferTo(zipOut);
          }
          zipOut.closeEntry();
          files++;
        }
        if (Files.isDirectory(warehouse)) {
          List<Path> all;
          try (Stream<Path> walk = Files.walk(warehouse)) {
            all = walk.filter(Files::isRegularFile).sorted().toList();
          }
          for (Path file : all) {
            String name = warehouse.relativize(file).toString().replace('\\', '/');
            zipOut.putNextEntry(new ZipEntry(WAREHOUSE + name));
            Files.copy(file, zipOut);
            zipOut.closeEntry();
            files++;
          }
        }
      }
      Files.move(partial, zip, StandardCopyOption.ATOMIC_MOVE);
      return files;
    } catch (SQLException e) {
      throw new StoreUnavailable(
          "Cannot back up the store (is a server running on it?): " + e.getMessage(), e);
    } catch (IOException e) {
      throw new UncheckedIOException("Cannot write the backup " + zip, e);
    } finally {
      deleteQuietly(partial);
      deleteQuietly(databaseZip);
    }
  }

  /**
   * Restores {@code zip} for {@code database} and {@code warehouse}, which must hold no store yet;
   * returns the files restored. Every entry must land inside them.
   */
  public static int restore(Path zip, DatabaseConfig database, Path warehouse) {
    requireEmbedded(database);
    Path databaseDir = databaseFile(database).getParent();
    if (Files.exists(Path.of(databaseFile(database) + ".mv.db"))) {
      throw new IllegalArgumentException(
          "A store exists already at "
              + databaseFile(database)
              + ".mv.db: restore into an empty"
              + " data directory");
    }
    int files = 0;
    try (ZipFile in = new ZipFile(zip.toFile())) {
      List<ZipEntry> entries = new ArrayList<>();
      in.entries().asIterator().forEachRemaining(entries::add);
      for (ZipEntry entry : entries) {
        if (entry.isDirectory()) {
          continue;
        }
        Path target;
        if (entry.getName().startsWith(DATABASE)) {
          target = inside(databaseDir, entry.getName().substring(DATABASE.length()));
        } else if (entry.getName().startsWith(WAREHOUSE)) {
          target = inside(warehouse, entry.getName().substring(WAREHOUSE.length()));
        } else {
          throw new IllegalArgumentException(
              "Not a Sluice backup: unexpected entry " + entry.getName());
        }
        Files.createDirectories(target.getParent());
        try (InputStream data = in.getInputStream(entry)) {
          Files.copy(data, target);
        }
        files++;
      }
    } catch (IOException e) {
      throw new UncheckedIOException("Cannot restore " + zip, e);
    }
    return files;
  }

  /** {@code name} under {@code root}, refusing a name that would leave it ({@code ../}). */
  private static Path inside(Path root, String name) {
    Path base = root.toAbsolutePath().normalize();
    Path target = base.resolve(name).normalize();
    if (name.isEmpty() || !target.startsWith(base) || target.equals(base)) {
      throw new IllegalArgumentException("Not a Sluice backup: entry outside its folder: " + name);
    }
    return target;
  }

  private static Path databaseFile(DatabaseConfig database) {
    String path = database.url().substring("jdbc:h2:file:".length());
    int options = path.indexOf(';');
    return Path.of(options < 0 ? path : path.substring(0, options)).toAbsolutePath().normalize();
  }

  private static void requireEmbedded(DatabaseConfig database) {
    requireNonNull(database, "database");
    if (!database.h2File()) {
      throw new IllegalArgumentException(
          "Backup and restore are for the embedded H2 store; back up PostgreSQL with its own"
              + " tools (base backups and WAL archiving)");
    }
  }

  private static void deleteQuietly(Path file) {
    try {
      Files.deleteIfExists(file);
    } catch (IOException ignored) {
      // a leftover temporary file; the answer stands
    }
  }
}
