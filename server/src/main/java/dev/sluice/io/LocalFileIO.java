package dev.sluice.io;

import dev.sluice.location.StorageLocation;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.nio.file.StandardOpenOption;
import java.util.Iterator;
import java.util.List;
import java.util.stream.Stream;
import org.apache.iceberg.exceptions.AlreadyExistsException;
import org.apache.iceberg.exceptions.ForbiddenException;
import org.apache.iceberg.exceptions.NotFoundException;
import org.apache.iceberg.io.FileInfo;
import org.apache.iceberg.io.InputFile;
import org.apache.iceberg.io.OutputFile;
import org.apache.iceberg.io.PositionOutputStream;
import org.apache.iceberg.io.SeekableInputStream;
import org.apache.iceberg.io.SupportsPrefixOperations;

/**
 * A FileIO for FILE storage on the local filesystem, so the server needs no Hadoop. Accepts {@code
 * file:/p}, {@code file:///p} and bare absolute paths, and only inside the catalog's
 * allowedLocations: a path outside is refused whatever asks for it.
 */
public final class LocalFileIO implements SupportsPrefixOperations {
  private final List<StorageLocation> allowed;

  public LocalFileIO(List<StorageLocation> allowed) {
    this.allowed = List.copyOf(allowed);
  }

  /** The local path of {@code location}, which must lie inside the allowed locations. */
  private Path confined(String location) {
    Path path = toPath(location);
    if (!StorageLocation.anyCovers(allowed, location)) {
      throw new ForbiddenException(
          "Location %s is outside the catalog's allowed locations", location);
    }
    return path;
  }

  /** Maps a {@code file:} location (or a bare absolute path) to a local path. */
  public static Path toPath(String location) {
    String path = location;
    if (path.startsWith("file://")) {
      path = path.substring("file://".length());
    } else if (path.startsWith("file:")) {
      path = path.substring("file:".length());
    }
    if (!path.startsWith("/")) {
      throw new IllegalArgumentException("Not an absolute local location: " + location);
    }
    return Paths.get(path);
  }

  @Override
  public InputFile newInputFile(String location) {
    return new LocalInputFile(location, confined(location));
  }

  @Override
  public OutputFile newOutputFile(String location) {
    return new LocalOutputFile(location, confined(location));
  }

  @Override
  public void deleteFile(String location) {
    try {
      Files.deleteIfExists(confined(location));
    } catch (IOException e) {
      throw new UncheckedIOException("Failed to delete " + location, e);
    }
  }

  @Override
  public Iterable<FileInfo> listPrefix(String prefix) {
    Path root = confined(prefix);
    if (!Files.isDirectory(root)) {
      return java.util.List.of();
    }
    try (Stream<Path> walk = Files.walk(root)) {
      return walk.filter(Files::isRegularFile)
          .map(p -> new FileInfo(p.toUri().toString(), sizeOf(p), modifiedAt(p)))
          .toList();
    } catch (IOException e) {
      throw new UncheckedIOException("Failed to list " + prefix, e);
    }
  }

  @Override
  public void deletePrefix(String prefix) {
    Path root = confined(prefix);
    if (!Files.exists(root)) {
      return;
    }
    try (Stream<Path> walk = Files.walk(root)) {
      Iterator<Path> paths = walk.sorted(java.util.Comparator.reverseOrder()).iterator();
      while (paths.hasNext()) {
        Files.deleteIfExists(paths.next());
      }
    } catch (IOException e) {
      throw new UncheckedIOException("Failed to delete prefix " + prefix, e);
    }
  }

  private static long sizeOf(Path p) {
    try {
      return Files.size(p);
    } catch (IOException e) {
      return 0L;
    }
  }

  private static long modifiedAt(Path p) {
    try {
      return Files.getLastModifiedTime(p).toMillis();
    } catch (IOException e) {
      return 0L;
    }
  }

  private record LocalInputFile(String location, Path path) implements InputFile {
    @Override
    public long getLength() {
      try {
        return Files.size(path);
      } catch (NoSuchFileException e) {
        throw new NotFoundException(e, "File does not exist: %s", location);
      } catch (IOException e) {
        throw new UncheckedIOException(e);
      }
    }

    @Override
    public SeekableInputStream newStream() {
      try {
        return new ChannelInputStream(FileChannel.open(path, StandardOpenOption.READ));
      } catch (NoSuchFileException e) {
        throw new NotFoundException(e, "File does not exist: %s", location);
      } catch (IOException e) {
        throw new UncheckedIOException("Failed to open " + location, e);
      }
    }

    @Override
    public boolean exists() {
      return Files.exists(path);
    }
  }

  private record LocalOutputFile(String location, Path path) implements OutputFile {
    @Override
    public PositionOutputStream create() {
      return open(StandardOpenOption.CREATE_NEW);
    }

    @Override
    public PositionOutputStream createOrOverwrite() {
      return open(StandardOpenOption.CREATE, StandardOpenOption.TRUNCATE_EXISTING);
    }

    private PositionOutputStream open(StandardOpenOption... options) {
      try {
        Files.createDirectories(path.toAbsolutePath().getParent());
        StandardOpenOption[] all = new StandardOpenOption[options.length + 1];
        System.arraycopy(options, 0, all, 0, options.length);
        all[options.length] = StandardOpenOption.WRITE;
        return new ChannelOutputStream(FileChannel.open(path, all));
      } catch (FileAlreadyExistsException e) {
        throw new AlreadyExistsException("File already exists: %s", location);
      } catch (IOException e) {
        throw new UncheckedIOException("Failed to create " + location, e);
      }
    }

    @Override
    public InputFile toInputFile() {
      return new LocalInputFile(location, path);
    }
  }

  private static final class ChannelInputStream extends SeekableInputStream {
    private final FileChannel channel;

    ChannelInputStream(FileChannel channel) {
      this.channel = channel;
    }

    @Override
    public long getPos() throws IOException {
      return channel.position();
    }

    @Override
    public void seek(long newPos) throws IOException {
      channel.position(newPos);
    }

    @Override
    public int read() throws IOException {
      ByteBuffer one = ByteBuffer.allocate(1);
      int n = channel.read(one);
      return n <= 0 ? -1 : one.get(0) & 0xff;
    }

    @Override
    public int read(byte[] b, int off, int len) throws IOException {
      if (len == 0) {
        return 0;
      }
      return channel.read(ByteBuffer.wrap(b, off, len));
    }

    @Override
    public void close() throws IOException {
      channel.close();
    }
  }

  private static final class ChannelOutputStream extends PositionOutputStream {
    private final FileChannel channel;

    ChannelOutputStream(FileChannel channel) {
      this.channel = channel;
    }

    @Override
    public long getPos() throws IOException {
      return channel.position();
    }

    @Override
    public void write(int b) throws IOException {
      channel.write(ByteBuffer.wrap(new byte[] {(byte) b}));
    }

    @Override
    public void write(byte[] b, int off, int len) throws IOException {
      ByteBuffer buf = ByteBuffer.wrap(b, off, len);
      while (buf.hasRemaining()) {
        channel.write(buf);
      }
    }

    @Override
    public void close() throws IOException {
      channel.close();
    }
  }
}
