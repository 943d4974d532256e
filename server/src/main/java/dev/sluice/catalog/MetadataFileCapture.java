package dev.sluice.catalog;

import static java.util.Objects.requireNonNull;

import java.io.IOException;
import java.util.Map;
import org.apache.iceberg.io.FileIO;
import org.apache.iceberg.io.InputFile;
import org.apache.iceberg.io.OutputFile;
import org.apache.iceberg.io.PositionOutputStream;

/**
 * The FileIO a commit writes its metadata file through: everything goes to {@code delegate}, and
 * the bytes of the one uncompressed metadata file written are kept as well. They are the metadata's
 * JSON exactly as Iceberg serialized it, which the commit's answer embeds again: kept, that JSON is
 * not made twice (it was 40 % of a commit's CPU on a table with a few hundred snapshots, JFR). The
 * copy is kept in chunks and joined once: a growing array copied itself at every doubling, and with
 * the final copy that was three times the file's size in garbage per commit (issue 42: a table of
 * 2,000 snapshots writes a file of about a megabyte on each commit).
 */
final class MetadataFileCapture implements FileIO {
  private final FileIO delegate;
  private String location;
  private ChunkedBytes bytes;

  MetadataFileCapture(FileIO delegate) {
    this.delegate = requireNonNull(delegate, "delegate");
  }

  /** The JSON written to {@code location}, or null when it was not (compressed, or another). */
  byte[] written(String location) {
    return bytes != null && location.equals(this.location) ? bytes.toByteArray() : null;
  }

  @Override
  public OutputFile newOutputFile(String path) {
    OutputFile file = delegate.newOutputFile(path);
    // Iceberg writes "<name>.metadata.json" as plain UTF-8 JSON, "<name>.gz.metadata.json" gzipped.
    if (!path.endsWith(".metadata.json") || path.endsWith(".gz.metadata.json")) {
      return file;
    }
    return new OutputFile() {
      @Override
      public PositionOutputStream create() {
        return tee(path, file.create());
      }

      @Override
      public PositionOutputStream createOrOverwrite() {
        return tee(path, file.createOrOverwrite());
      }

      @Override
      public String location() {
        return file.location();
      }

      @Override
      public InputFile toInputFile() {
        return file.toInputFile();
      }
    };
  }

  private PositionOutputStream tee(String path, PositionOutputStream out) {
    ChunkedBytes copy = new ChunkedBytes();
    this.location = path;
    this.bytes = copy;
    return new PositionOutputStream() {
      @Override
      public long getPos() throws IOException {
        return out.getPos();
      }

      @Override
      public void write(int b) throws IOException {
        out.write(b);
        copy.write(b);
      }

      @Override
      public void write(byte[] b, int off, int len) throws IOException {
        out.write(b, off, len);
        copy.write(b, off, len);
      }

      @Override
      public void flush() throws IOException {
        out.flush();
      }

      @Override
      public void close() throws IOException {
        out.close();
      }
    };
  }

  @Override
  public InputFile newInputFile(String path) {
    return delegate.newInputFile(path);
  }

  @Override
  public InputFile newInputFile(String path, long length) {
    return delegate.newInputFile(path, length);
  }

  @Override
  public void deleteFile(String path) {
    delegate.deleteFile(path);
  }

  @Override
  public Map<String, String> properties() {
    return delegate.properties();
  }

  @Override
  public void close() {
    // The delegate belongs to the table operations.
  }

  /** Bytes appended in chunks of growing size, joined into one array once, at the end. */
  private static final class ChunkedBytes {
    private static final int FIRST_CHUNK = 16 * 1024;
    private static final int MAX_CHUNK = 1024 * 1024;
    private final java.util.List<byte[]> full = new java.util.ArrayList<>();
    private byte[] current = new byte[FIRST_CHUNK];
    private int used;
    private int size;

    void write(int b) {
      if (used == current.length) {
        next();
      }
      current[used++] = (byte) b;
      size++;
    }

    void write(byte[] b, int off, int len) {
      while (len > 0) {
        if (used == current.length) {
          next();
        }
        int n = Math.min(len, current.length - used);
        System.arraycopy(b, off, current, used, n);
        used += n;
        off += n;
        len -= n;
        size += n;
      }
    }

    private void next() {
      full.add(current);
      current = new byte[Math.min(MAX_CHUNK, current.length * 2)];
      used = 0;
    }

    byte[] toByteArray() {
      byte[] out = new byte[size];
      int at = 0;
      for (byte[] chunk : full) {
        System.arraycopy(chunk, 0, out, at, chunk.length);
        at += chunk.length;
      }
      System.arraycopy(current, 0, out, at, used);
      return out;
    }
  }
}
