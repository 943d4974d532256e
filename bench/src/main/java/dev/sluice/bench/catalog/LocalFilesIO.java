package dev.sluice.bench.catalog;

import java.io.File;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import org.apache.iceberg.io.FileIO;
import org.apache.iceberg.io.InputFile;
import org.apache.iceberg.io.OutputFile;

/**
 * A FileIO for a local warehouse on plain {@code java.io} files (iceberg-api's {@code
 * Files.localInput}/{@code localOutput}), as Sluice's own {@code LocalFileIO} reads it on the
 * server: the plan phase's client reads manifests the way the server does, so that server ÷ client
 * measures where planning runs, not two file systems. Iceberg's default for {@code file:} paths,
 * Hadoop's local file system, verifies a {@code .crc} beside every file it reads and, without
 * Hadoop's native library, forks {@code chmod} for every file it writes (building the plan table
 * with it took over a minute).
 */
public final class LocalFilesIO implements FileIO {
  @Override
  public InputFile newInputFile(String location) {
    return org.apache.iceberg.Files.localInput(file(location));
  }

  @Override
  public OutputFile newOutputFile(String location) {
    return org.apache.iceberg.Files.localOutput(file(location));
  }

  @Override
  public void deleteFile(String location) {
    try {
      Files.deleteIfExists(file(location).toPath());
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** {@code file:/p}, {@code file:///p} or a bare absolute path. */
  private static File file(String location) {
    if (location.startsWith("file:")) {
      return Path.of(
              URI.create(
                  location.startsWith("file://") ? location : "file://" + location.substring(5)))
          .toFile();
    }
    return new File(location);
  }
}
