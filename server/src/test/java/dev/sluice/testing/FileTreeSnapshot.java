package dev.sluice.testing;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Stream;

/**
 * Every file and folder under a root, with each file's size and SHA-256, so a test can show that a
 * refused request wrote, changed or deleted nothing there. Equal snapshots print alike; {@link
 * #toString()} lists the entries, so an assertion failure shows the difference.
 */
public record FileTreeSnapshot(Map<String, String> entries) {
  public FileTreeSnapshot {
    entries = Map.copyOf(new TreeMap<>(entries));
  }

  public static FileTreeSnapshot of(Path root) {
    Map<String, String> entries = new TreeMap<>();
    if (!Files.exists(root)) {
      return new FileTreeSnapshot(entries);
    }
    try (Stream<Path> walk = Files.walk(root)) {
      walk.forEach(
          path ->
              entries.put(
                  root.relativize(path).toString() + (Files.isDirectory(path) ? "/" : ""),
                  Files.isDirectory(path)
                      ? "dir"
                      : Files.isRegularFile(path) ? describe(path) : "other"));
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    return new FileTreeSnapshot(entries);
  }

  public boolean contains(Path root, Path file) {
    return entries.containsKey(root.relativize(file).toString());
  }

  private static String describe(Path file) {
    try (InputStream in = Files.newInputStream(file)) {
      MessageDigest sha = MessageDigest.getInstance("SHA-256");
      byte[] buffer = new byte[8192];
      long size = 0;
      for (int n; (n = in.read(buffer)) > 0; size += n) {
        sha.update(buffer, 0, n);
      }
      return size + " " + HexFormat.of().formatHex(sha.digest());
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException(e);
    }
  }

  @Override
  public String toString() {
    StringBuilder sb = new StringBuilder();
    new TreeMap<>(entries)
        .forEach((path, what) -> sb.append(path).append(' ').append(what).append('\n'));
    return sb.toString();
  }
}
