package dev.sluice.bench.report;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;

/** The facts about this machine a benchmark result is meaningless without. */
public record MachineInfo(
    int cores, String cpuModel, long memoryMib, String java, String os, String gitCommit) {

  public static MachineInfo read(Path repoRoot) {
    return new MachineInfo(
        Runtime.getRuntime().availableProcessors(),
        readCpuModel(),
        memTotalKib() / 1024,
        System.getProperty("java.vm.name")
            + " "
            + System.getProperty("java.runtime.version")
            + " ("
            + System.getProperty("java.vm.vendor")
            + ")",
        System.getProperty("os.name")
            + " "
            + System.getProperty("os.version")
            + " "
            + System.getProperty("os.arch"),
        gitCommit(repoRoot));
  }

  /** The 1-minute load average now: a quick sign of another process competing for the cores. */
  public static String loadAverage() {
    try {
      return Files.readString(Path.of("/proc/loadavg")).trim();
    } catch (IOException e) {
      return "unknown";
    }
  }

  private static String readCpuModel() {
    try {
      return Files.readAllLines(Path.of("/proc/cpuinfo")).stream()
          .filter(l -> l.startsWith("model name"))
          .map(l -> l.substring(l.indexOf(':') + 1).trim())
          .findFirst()
          .orElse("unknown");
    } catch (IOException e) {
      return "unknown";
    }
  }

  private static long memTotalKib() {
    try {
      return Files.readAllLines(Path.of("/proc/meminfo")).stream()
          .filter(l -> l.startsWith("MemTotal:"))
          .map(l -> Long.parseLong(l.replaceAll("\\D+", "")))
          .findFirst()
          .orElse(-1L);
    } catch (IOException e) {
      return -1;
    }
  }

  private static String gitCommit(Path repoRoot) {
    try {
      Process p =
          new ProcessBuilder("git", "-C", repoRoot.toString(), "describe", "--always", "--dirty")
              .redirectErrorStream(true)
              .start();
      String out = new String(p.getInputStream().readAllBytes()).trim();
      return p.waitFor(10, TimeUnit.SECONDS) && p.exitValue() == 0 ? out : "unknown";
    } catch (IOException | InterruptedException e) {
      return "unknown";
    }
  }
}
