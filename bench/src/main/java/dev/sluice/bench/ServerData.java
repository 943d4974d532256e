package dev.sluice.bench;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * Removes what the servers stored (databases, warehouses: a hundred thousand metadata files and
 * more after the create and commit scenarios) once a run is over, keeping their logs and
 * recordings. With {@code rm -rf}: a Java walk took about a minute for what rm does in seconds.
 */
final class ServerData {
  private static final List<String> DATA =
      List.of("reference/warehouse", "reference/catalog.db", "sluice/data", "sluice-pg/data");

  private ServerData() {}

  static void remove(Path workDir) throws InterruptedException {
    List<String> command = new ArrayList<>(List.of("rm", "-rf", "--"));
    for (String relative : DATA) {
      Path path = workDir.resolve(relative);
      if (Files.exists(path)) {
        command.add(path.toString());
      }
    }
    if (command.size() == 3) {
      return;
    }
    try {
      int exit = new ProcessBuilder(command).inheritIO().start().waitFor();
      if (exit != 0) {
        System.err.println(
            "could not remove the servers' data under "
                + workDir
                + " (rm exited with "
                + exit
                + ")");
      }
    } catch (IOException e) {
      System.err.println(
          "could not remove the servers' data under " + workDir + ": " + e.getMessage());
    }
  }
}
