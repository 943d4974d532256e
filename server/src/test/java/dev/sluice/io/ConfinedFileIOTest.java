package dev.sluice.io;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.sluice.location.StorageLocation;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.apache.iceberg.exceptions.ForbiddenException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ConfinedFileIOTest {
  @TempDir Path dir;

  private Path file(String relative) throws Exception {
    Path path = dir.resolve(relative);
    Files.createDirectories(path.getParent());
    Files.writeString(path, "x");
    return path;
  }

  @Test
  void deletesOnlyInsideTheTablesOwnLocationsAndRefusesReadsAndWritesOutside() throws Exception {
    Path own = file("wh/ns/t/data/a.parquet");
    Path ownMetadata = file("wh/ns/t-meta/v1.json");
    Path sibling = file("wh/ns/t2/data/b.parquet");
    Path outside = file("elsewhere/secret.txt");
    LocalFileIO catalogIo = new LocalFileIO(List.of(StorageLocation.parse(dir.toUri().toString())));
    ConfinedFileIO io =
        new ConfinedFileIO(
            catalogIo,
            "table ns.t",
            List.of(
                StorageLocation.parse(dir.resolve("wh/ns/t").toUri().toString()),
                StorageLocation.parse(dir.resolve("wh/ns/t-meta").toString())));

    io.deleteFiles(
        List.of(
            own.toUri().toString(),
            sibling.toUri().toString(),
            outside.toString(),
            "file:/etc/passwd",
            dir.resolve("wh/ns/t/../t2/data/b.parquet").toString(),
            "not a location"));
    io.deleteFile(ownMetadata.toUri().toString());
    io.deleteFile(sibling.toString());
    assertThat(own).doesNotExist();
    assertThat(ownMetadata).doesNotExist();
    assertThat(sibling).exists();
    assertThat(outside).exists();

    assertThatThrownBy(() -> io.newInputFile(sibling.toString()))
        .isInstanceOf(ForbiddenException.class);
    assertThatThrownBy(() -> io.newOutputFile(outside.toString()))
        .isInstanceOf(ForbiddenException.class);
    assertThat(io.newInputFile(dir.resolve("wh/ns/t/data/new.parquet").toString()).exists())
        .isFalse();
  }

  @Test
  void theLocalFileIoRefusesEveryPathOutsideAllowedLocations() throws Exception {
    Path inside = file("allowed/x.json");
    Path outside = file("other/y.json");
    LocalFileIO io =
        new LocalFileIO(List.of(StorageLocation.parse(dir.resolve("allowed").toUri().toString())));
    assertThat(io.newInputFile(inside.toString()).exists()).isTrue();
    for (String path :
        List.of(
            outside.toString(),
            outside.toUri().toString(),
            dir.resolve("allowed/../other/y.json").toString(),
            dir.resolve("allowedx/y.json").toString())) {
      assertThatThrownBy(() -> io.newInputFile(path))
          .as(path)
          .isInstanceOf(ForbiddenException.class);
      assertThatThrownBy(() -> io.newOutputFile(path))
          .as(path)
          .isInstanceOf(ForbiddenException.class);
      assertThatThrownBy(() -> io.deleteFile(path)).as(path).isInstanceOf(ForbiddenException.class);
    }
    assertThatThrownBy(() -> io.deletePrefix(dir.toString()))
        .isInstanceOf(ForbiddenException.class);
    assertThat(outside).exists();
  }
}
