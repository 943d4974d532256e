package dev.sluice.e2e.durability;

import static org.junit.jupiter.api.Assertions.fail;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * A tmpfs of a fixed size, mounted for one test, that can be filled to the last byte and freed
 * again: a real full disk under the server's H2 file or its warehouse. Mounting needs root (as the
 * test beds' installs do); without it the test fails, saying so.
 */
final class SmallFileSystem implements AutoCloseable {
  private final Path mountPoint;
  private final Path filler;

  private SmallFileSystem(Path mountPoint) {
    this.mountPoint = mountPoint;
    this.filler = mountPoint.resolve("filler");
  }

  static SmallFileSystem mount(Path mountPoint, int megabytes) throws IOException {
    Files.createDirectories(mountPoint);
    run(
        List.of(
            "mount",
            "-t",
            "tmpfs",
            "-o",
            "size=" + megabytes + "m",
            "tmpfs",
            mountPoint.toString()));
    return new SmallFileSystem(mountPoint);
  }

  Path root() {
    return mountPoint;
  }

  /**
   * Writes the filler until the file system refuses (ENOSPC); called again while full, it takes
   * whatever was freed since. Returns the bytes it added.
   */
  long fill() {
    long written = 0;
    try (FileChannel out =
        FileChannel.open(
            filler,
            StandardOpenOption.CREATE,
            StandardOpenOption.WRITE,
            StandardOpenOption.APPEND)) {
      for (int block : new int[] {1 << 20, 4096, 512}) {
        ByteBuffer zeros = ByteBuffer.allocate(block);
        try {
          while (true) {
            zeros.clear();
            written += out.write(zeros);
          }
        } catch (IOException full) {
          // ENOSPC at this block size: try a smaller one
        }
      }
    } catch (IOException e) {
      if (written == 0 && !Files.exists(filler)) {
        throw new UncheckedIOException("cannot create " + filler, e);
      }
    }
    return written;
  }

  /** Removes the filler: the space is back. */
  void free() {
    try {
      Files.deleteIfExists(filler);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  @Override
  public void close() throws IOException {
    free();
    run(List.of("umount", "-l", mountPoint.toString()));
  }

  private static void run(List<String> command) throws IOException {
    Process p = new ProcessBuilder(command).redirectErrorStream(true).start();
    try {
      if (!p.waitFor(30, TimeUnit.SECONDS)) {
        p.destroyForcibly();
        fail(String.join(" ", command) + " did not finish in 30 s");
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IOException(e);
    }
    if (p.exitValue() != 0) {
      String out = new String(p.getInputStream().readAllBytes());
      fail(
          String.join(" ", command)
              + " failed ("
              + p.exitValue()
              + "): "
              + out.strip()
              + ". The full-disk tests mount a small tmpfs and need root, as scripts/test-all.sh"
              + " has for its test beds.");
    }
  }
}
