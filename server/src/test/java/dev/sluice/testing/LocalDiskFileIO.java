package dev.sluice.testing;

import dev.sluice.io.LocalFileIO;
import dev.sluice.location.StorageLocation;
import java.io.IOException;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.OpenOption;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.List;
import org.apache.iceberg.io.FileIO;
import org.apache.iceberg.io.InputFile;
import org.apache.iceberg.io.OutputFile;
import org.apache.iceberg.io.PositionOutputStream;

/**
 * An engine's FileIO on the local disk for Iceberg clients in tests ({@code io-impl}), so a client
 * writes where its metadata says without loading Hadoop, as an engine holding FILE storage would.
 * Reads and deletes go through the server's LocalFileIO, unconfined; writes keep their position
 * after close, which Iceberg's Avro writers ask for.
 */
public final class LocalDiskFileIO implements FileIO {
  private final LocalFileIO local = new LocalFileIO(List.of(StorageLocation.parse("file:/")));

  @Override
  public InputFile newInputFile(String path) {
    return local.newInputFile(path);
  }

  @Override
  public OutputFile newOutputFile(String path) {
    Path file = LocalFileIO.toPath(path);
    return new OutputFile() {
      @Override
      public PositionOutputStream create() {
        return open(file, StandardOpenOption.CREATE_NEW);
      }

      @Override
      public PositionOutputStream createOrOverwrite() {
        return open(file, StandardOpenOption.CREATE, StandardOpenOption.TRUNCATE_EXISTING);
      }

      @Override
      public String location() {
        return path;
      }

      @Override
      public InputFile toInputFile() {
        return newInputFile(path);
      }
    };
  }

  @Override
  public void deleteFile(String path) {
    local.deleteFile(path);
  }

  private static PositionOutputStream open(Path file, OpenOption... options) {
    try {
      Files.createDirectories(file.getParent());
      OutputStream out = Files.newOutputStream(file, options);
      return new PositionOutputStream() {
        private long pos;

        @Override
        public long getPos() {
          return pos;
        }

        @Override
        public void write(int b) throws IOException {
          out.write(b);
          pos++;
        }

        @Override
        public void write(byte[] b, int off, int len) throws IOException {
          out.write(b, off, len);
          pos += len;
        }

        @Override
        public void close() throws IOException {
          out.close();
        }
      };
    } catch (IOException e) {
      throw new UncheckedIOException("Cannot create " + file, e);
    }
  }
}
