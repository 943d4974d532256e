package dev.sluice.bench.report;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;

/**
 * Execution samples of one server, counted by the method on top of the stack (self), by what that
 * method is (library or layer), and by every distinct method on the stack (inclusive), overall and
 * per scenario.
 */
public record Profile(
    String server,
    long samples,
    Map<String, Long> self,
    Map<String, Long> selfByCategory,
    Map<String, Long> inclusive,
    Map<String, Long> samplesByScenario,
    Map<String, Map<String, Long>> inclusiveByScenario) {

  /** The {@code n} largest entries, largest first. */
  public static List<Map.Entry<String, Long>> top(Map<String, Long> counts, int n) {
    return counts.entrySet().stream()
        .sorted(Map.Entry.<String, Long>comparingByValue().reversed())
        .limit(n)
        .collect(Collectors.toList());
  }

  static Map<String, Long> newCounts() {
    return new LinkedHashMap<>();
  }
}
