package dev.sluice.bench.target;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * What Linux's /proc tells about a process (or, for {@link #systemBusySeconds()}, the whole
 * machine): CPU seconds and resident memory. Read directly so that both servers are measured the
 * same way, from outside, whatever their runtime says about itself.
 */
public final class ProcStats {
  private static final double TICKS_PER_SECOND = clockTicks();

  private ProcStats() {}

  /**
   * User + system CPU seconds the process has used so far, its own (fields 14 and 15 of
   * /proc/PID/stat) plus that of the child processes it has waited for (fields 16 and 17): the
   * reference server's HadoopFileIO forks {@code chmod} for files it writes (no native Hadoop
   * library), and that work is the server's.
   */
  public static double cpuSeconds(long pid) {
    try {
      String stat = Files.readString(Path.of("/proc/" + pid + "/stat"));
      // The command name (field 2) may contain spaces: count fields after its closing parenthesis.
      String[] fields = stat.substring(stat.lastIndexOf(')') + 2).split(" ");
      long ticks = 0;
      for (int i = 11; i <= 14; i++) { // utime, stime, cutime, cstime
        ticks += Long.parseLong(fields[i]);
      }
      return ticks / TICKS_PER_SECOND;
    } catch (IOException | RuntimeException e) {
      return Double.NaN;
    }
  }

  public static double cpuSecondsOfThisProcess() {
    return cpuSeconds(ProcessHandle.current().pid());
  }

  /** Resident set size now (VmRSS), in KiB. */
  public static long rssKib(long pid) {
    return statusKib(pid, "VmRSS:");
  }

  /** Peak resident set size so far (VmHWM), in KiB. */
  public static long peakRssKib(long pid) {
    return statusKib(pid, "VmHWM:");
  }

  /** Threads of the process now (Threads: of /proc/PID/status), or -1. */
  public static int threads(long pid) {
    return (int) statusKib(pid, "Threads:");
  }

  /**
   * CPU seconds all processes of the machine have spent busy so far (first line of /proc/stat:
   * everything but idle and iowait). Minus the server's and the load generator's own, it shows how
   * much else ran during a measurement.
   */
  public static double systemBusySeconds() {
    try {
      String first = Files.readAllLines(Path.of("/proc/stat")).get(0);
      String[] f = first.trim().split("\\s+");
      long busy = 0;
      for (int i = 1; i < f.length && i <= 8; i++) {
        if (i != 4 && i != 5) { // idle, iowait
          busy += Long.parseLong(f[i]);
        }
      }
      return busy / TICKS_PER_SECOND;
    } catch (IOException | RuntimeException e) {
      return Double.NaN;
    }
  }

  private static long statusKib(long pid, String key) {
    try {
      for (String line : Files.readAllLines(Path.of("/proc/" + pid + "/status"))) {
        if (line.startsWith(key)) {
          return Long.parseLong(line.substring(key.length()).trim().split("\\s+")[0]);
        }
      }
    } catch (IOException | RuntimeException e) {
      // the process is gone or this is not Linux
    }
    return -1;
  }

  private static double clockTicks() {
    try {
      Process p = new ProcessBuilder("getconf", "CLK_TCK").redirectErrorStream(true).start();
      String out = new String(p.getInputStream().readAllBytes()).trim();
      p.waitFor();
      return Double.parseDouble(out);
    } catch (Exception e) {
      return 100; // USER_HZ on every mainstream Linux build
    }
  }
}
