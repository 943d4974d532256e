package dev.sluice.bench;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.List;
import java.util.stream.Stream;

/**
 * Removes what the servers stored (databases, warehouses: tens of thousands of metadata files
 * after the create and commit scenarios) once a run is over, keeping their logs and recordings.
 */
final class ServerData {
  private static final List<String> DATA = List.of("reference/warehouse", "reference/catalog.db", "sluice/data");

  private ServerData() {}

  static void remove(Path workDir) {
    for (String relative : DATA) {
      Path path = workDir.resolve(relative);
      if (!Files.exists(path)) {
        continue;
      }
      try (Stream<Path> walk = Files.walk(path)) {
        walk.sorted(Comparator.reverseOrder()).forEach(p -> {
          try {
            Files.delete(p);
          } catch (IOException e) {
            throw new UncheckedIOException(e);
          }
        });
      } catch (IOException | UncheckedIOException e) {
        System.err.println("could not remove " + path + ": " + e.getMessage());
      }
    }
  }
}
