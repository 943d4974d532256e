package dev.sluice.bench.soak;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The server's old generation after a full collection, asked of its JVM with {@code jcmd} (the
 * JDK's, beside this one): {@code GC.run}, then {@code GC.heap_info}. What survives a full
 * collection is the live set: a leak shows as this number growing minute after minute, whatever the
 * young generation does. The collection pauses the server (tens of milliseconds at a 256 MB heap),
 * once per interval.
 */
final class HeapAfterGc {
  /** Serial and parallel collectors name the old generation; G1 reports the whole heap. */
  private static final Pattern OLD =
      Pattern.compile("(?:tenured generation|ParOldGen|PSOldGen)\\s+total \\d+K, used (\\d+)K");

  private static final Pattern HEAP = Pattern.compile("heap\\s+total \\d+K, used (\\d+)K");

  private HeapAfterGc() {}

  /** KiB in the old generation after a full GC, or -1 (with the reason on stderr). */
  static long oldGenKib(long pid) {
    try {
      jcmd(pid, "GC.run");
      String info = jcmd(pid, "GC.heap_info");
      Matcher old = OLD.matcher(info);
      if (old.find()) {
        return Long.parseLong(old.group(1));
      }
      Matcher heap = HEAP.matcher(info);
      if (heap.find()) {
        return Long.parseLong(heap.group(1));
      }
      System.err.println("soak: no heap figure in jcmd GC.heap_info: " + info.strip());
    } catch (IOException e) {
      System.err.println("soak: " + e.getMessage());
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
    return -1;
  }

  private static final Pattern HISTOGRAM_ROW =
      Pattern.compile("^\\s*\\d+:\\s+(\\d+)\\s+(\\d+)\\s+(\\S+)", Pattern.MULTILINE);

  /**
   * Bytes of live objects per class ({@code GC.class_histogram}, which collects first), or empty
   * (with the reason on stderr): comparing two tells what the live set grew by.
   */
  static Map<String, Long> liveBytesByClass(long pid) {
    Map<String, Long> bytes = new HashMap<>();
    try {
      Matcher row = HISTOGRAM_ROW.matcher(jcmd(pid, "GC.class_histogram"));
      while (row.find()) {
        bytes.merge(row.group(3), Long.parseLong(row.group(2)), Long::sum);
      }
    } catch (IOException e) {
      System.err.println("soak: " + e.getMessage());
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
    return bytes;
  }

  private static String jcmd(long pid, String command) throws IOException, InterruptedException {
    Path jcmd = Path.of(System.getProperty("java.home"), "bin", "jcmd");
    Process p =
        new ProcessBuilder(jcmd.toString(), Long.toString(pid), command)
            .redirectErrorStream(true)
            .start();
    String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    if (!p.waitFor(30, TimeUnit.SECONDS) || p.exitValue() != 0) {
      p.destroyForcibly();
      throw new IOException("jcmd " + pid + " " + command + " failed: " + out.strip());
    }
    return out;
  }
}
