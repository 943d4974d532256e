package dev.sluice;

import static dev.sluice.CommandRuns.call;
import static dev.sluice.CommandRuns.sluice;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.sluice.CommandRuns.Run;
import dev.sluice.config.ServerConfig;
import java.io.OutputStream;
import java.net.URI;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.stream.Stream;
import java.util.zip.ZipEntry;
import java.util.zip.ZipOutputStream;
import org.junit.jupiter.api.Test;

/**
 * {@code sluice backup} and {@code restore} of the embedded default: after the data directory is
 * lost, a restore into it brings back the catalog, its table and the table's metadata files; a
 * backup never overwrites, a restore never lands on a store or outside its folders.
 */
class BackupCommandsTest {
  private static final String ROOT = "root-id:root-secret";

  private static ServerConfig config(Path dataDir) {
    return ServerConfig.load(
        null,
        new ServerConfig.Overrides("127.0.0.1", 0, dataDir.toString()),
        k -> null,
        StandardBackends.create());
  }

  private static String token(SluiceServer server) throws Exception {
    return CommandRuns.token(server, "root-id", "root-secret");
  }

  private static void deleteTree(Path root) throws Exception {
    try (Stream<Path> walk = Files.walk(root)) {
      for (Path p : walk.sorted(Comparator.reverseOrder()).toList()) {
        Files.delete(p);
      }
    }
  }

  @Test
  void aLostDataDirectoryIsBroughtBackByRestore() throws Exception {
    Path dataDir = Files.createTempDirectory("sluice-backup").resolve("data");
    Path zip = dataDir.resolveSibling("backup.zip");
    String metadataLocation;
    try (SluiceServer server = SluiceServer.start(config(dataDir), ROOT, null)) {
      String token = token(server);
      String base = "/api/catalog/v1/quickstart/namespaces";
      assertThat(call(server, token, "POST", base, "{\"namespace\": [\"ns\"]}").statusCode())
          .isEqualTo(200);
      HttpResponse<String> created =
          call(
              server,
              token,
              "POST",
              base + "/ns/tables",
              "{\"name\": \"t\", \"schema\": {\"type\": \"struct\", \"fields\": ["
                  + "{\"id\": 1, \"name\": \"id\", \"required\": true, \"type\": \"long\"}]}}");
      assertThat(created.statusCode()).as(created.body()).isEqualTo(200);
      metadataLocation =
          new ObjectMapper().readTree(created.body()).get("metadata-location").asText();
    }

    Run backup = sluice("backup", "--data-dir", dataDir.toString(), "--to", zip.toString());
    assertThat(backup.exit()).as(backup.err()).isZero();
    assertThat(backup.out()).contains("backed up").contains(zip.toString());
    Run again = sluice("backup", "--data-dir", dataDir.toString(), "--to", zip.toString());
    assertThat(again.exit()).isEqualTo(1);
    assertThat(again.err()).contains("exists already");

    deleteTree(dataDir);
    Run restore = sluice("restore", "--data-dir", dataDir.toString(), "--from", zip.toString());
    assertThat(restore.exit()).as(restore.err()).isZero();
    assertThat(Path.of(URI.create(metadataLocation.replaceFirst("^file:/+", "file:///")))).exists();

    try (SluiceServer server = SluiceServer.start(config(dataDir), null, null)) {
      HttpResponse<String> loaded =
          call(
              server,
              token(server),
              "GET",
              "/api/catalog/v1/quickstart/namespaces/ns/tables/t",
              null);
      assertThat(loaded.statusCode()).as(loaded.body()).isEqualTo(200);
      assertThat(new ObjectMapper().readTree(loaded.body()).get("metadata-location").asText())
          .isEqualTo(metadataLocation);
    }

    Run onAStore = sluice("restore", "--data-dir", dataDir.toString(), "--from", zip.toString());
    assertThat(onAStore.exit()).isEqualTo(1);
    assertThat(onAStore.err()).contains("A store exists already");
  }

  @Test
  void aBackupWhoseEntriesLeaveTheirFolderIsRefused() throws Exception {
    Path dir = Files.createTempDirectory("sluice-restore");
    Path zip = dir.resolve("evil.zip");
    try (OutputStream out = Files.newOutputStream(zip);
        ZipOutputStream z = new ZipOutputStream(out)) {
      z.putNextEntry(new ZipEntry("warehouse/../../escaped.txt"));
      z.write("x".getBytes(StandardCharsets.UTF_8));
      z.closeEntry();
    }
    Path dataDir = dir.resolve("data");
    Run restore = sluice("restore", "--data-dir", dataDir.toString(), "--from", zip.toString());
    assertThat(restore.exit()).isEqualTo(1);
    assertThat(restore.err()).contains("outside its folder");
    assertThat(dir.resolve("escaped.txt")).doesNotExist();
    assertThat(dir.getParent().resolve("escaped.txt")).doesNotExist();
  }

  @Test
  void postgresIsBackedUpWithItsOwnTools() throws Exception {
    Path file = Files.createTempFile("sluice", ".yaml");
    Files.writeString(file, "database:\n  url: jdbc:postgresql://127.0.0.1:1/sluice\n");
    Run backup =
        sluice(
            "backup", "--config", file.toString(), "--to", file.resolveSibling("x.zip").toString());
    assertThat(backup.exit()).isEqualTo(1);
    assertThat(backup.err()).contains("PostgreSQL with its own tools");
  }
}
