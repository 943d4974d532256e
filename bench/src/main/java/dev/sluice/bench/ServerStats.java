package dev.sluice.bench;

/**
 * A server process as a whole: its RSS two seconds after it became ready (idle, before any
 * fixture), and what /proc says just before it is stopped.
 */
public record ServerStats(
    String name,
    long pid,
    double startupSeconds,
    long idleRssKib,
    long rssKib,
    long peakRssKib,
    double cpuSeconds) {

  /**
   * The server that served {@code target}: the one of that name (sluice-pg), else the longest one
   * whose name prefixes it (sluice for sluice-rbac and sluice-vended, sluice-pg, not sluice, for
   * sluice-pg-vended).
   */
  public static String serverOf(String target, java.util.Collection<String> servers) {
    if (servers.contains(target)) {
      return target;
    }
    return servers.stream()
        .filter(s -> target.startsWith(s + "-"))
        .max(java.util.Comparator.comparingInt(String::length))
        .orElse(target);
  }
}
