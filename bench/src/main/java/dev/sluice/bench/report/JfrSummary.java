package dev.sluice.bench.report;

import dev.sluice.bench.load.RunResult;
import java.io.IOException;
import java.nio.file.Path;
import java.time.Instant;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import jdk.jfr.consumer.RecordedEvent;
import jdk.jfr.consumer.RecordedFrame;
import jdk.jfr.consumer.RecordingFile;

/**
 * Reads a server's flight recording and keeps the execution samples (JFR's CPU sampler: Java
 * threads running Java code; waiting and GC are not in it) taken inside that server's measured
 * windows, attributed to the scenario running then.
 */
public final class JfrSummary {
  /**
   * Frames (nearly) every sample has, thread entry and the HTTP server's dispatch chain: left out
   * of the inclusive counts, where they would fill the top rows and say nothing about where time
   * goes.
   */
  private static final List<String> PLUMBING =
      List.of(
          "java.lang.Thread.",
          "java.util.concurrent.ThreadPoolExecutor",
          "org.eclipse.jetty.",
          "jakarta.servlet.");

  /** What the per-scenario lists show: the catalog's own layers, where a change would be made. */
  private static final List<String> APPLICATION =
      List.of(
          "dev.sluice.",
          "org.apache.iceberg.",
          "org.h2.",
          "com.nimbusds.",
          "com.zaxxer.hikari.",
          "org.sqlite.",
          "org.apache.hadoop.");

  /** Self time grouped by what the code is, first match wins. */
  private static final List<Map.Entry<String, String>> CATEGORIES =
      List.of(
          Map.entry("com.fasterxml.jackson.", "JSON (Jackson)"),
          Map.entry("org.h2.", "database (H2)"),
          Map.entry("org.sqlite.", "database (SQLite)"),
          Map.entry("com.zaxxer.hikari.", "database (Hikari pool)"),
          Map.entry("org.flywaydb.", "database (Flyway)"),
          Map.entry("com.nimbusds.", "auth (JWT)"),
          Map.entry("sun.security.", "crypto (JDK)"),
          Map.entry("javax.crypto.", "crypto (JDK)"),
          Map.entry("com.sun.crypto.", "crypto (JDK)"),
          Map.entry("ch.qos.logback.", "logging"),
          Map.entry("org.slf4j.", "logging"),
          Map.entry("io.micrometer.", "metrics (Micrometer)"),
          Map.entry("com.github.benmanes.caffeine.", "caches (Caffeine)"),
          Map.entry("org.apache.hadoop.", "Hadoop (FileIO, Configuration)"),
          Map.entry("org.apache.iceberg.", "Iceberg core"),
          Map.entry("dev.sluice.", "Sluice"),
          Map.entry("org.eclipse.jetty.", "HTTP server (Jetty)"),
          Map.entry("jakarta.servlet.", "HTTP server (Jetty)"),
          Map.entry("sun.nio.", "JDK I/O"),
          Map.entry("java.io.", "JDK I/O"),
          Map.entry("java.nio.", "JDK I/O"),
          Map.entry("java.util.regex.", "JDK regex"),
          Map.entry("java.util.zip.", "JDK zip"),
          Map.entry("java.", "JDK (collections, strings, …)"),
          Map.entry("jdk.", "JDK (collections, strings, …)"),
          Map.entry("sun.", "JDK (collections, strings, …)"));

  private JfrSummary() {}

  public static Profile read(String server, Path recording, List<RunResult> runsOnThisServer)
      throws IOException {
    Map<String, Long> self = Profile.newCounts();
    Map<String, Long> categories = Profile.newCounts();
    Map<String, Long> inclusive = Profile.newCounts();
    Map<String, Long> byScenario = Profile.newCounts();
    Map<String, Map<String, Long>> inclusiveByScenario = new HashMap<>();
    long samples = 0;
    try (RecordingFile file = new RecordingFile(recording)) {
      while (file.hasMoreEvents()) {
        RecordedEvent event = file.readEvent();
        if (!event.getEventType().getName().equals("jdk.ExecutionSample")
            || event.getStackTrace() == null) {
          continue;
        }
        String scenario = scenarioAt(event.getStartTime(), runsOnThisServer);
        if (scenario == null) {
          continue;
        }
        samples++;
        byScenario.merge(scenario, 1L, Long::sum);
        List<RecordedFrame> frames = event.getStackTrace().getFrames();
        if (frames.isEmpty()) {
          continue;
        }
        String top = name(frames.get(0));
        self.merge(top, 1L, Long::sum);
        categories.merge(category(top), 1L, Long::sum);
        Set<String> seen = new HashSet<>();
        Map<String, Long> perScenario =
            inclusiveByScenario.computeIfAbsent(scenario, k -> Profile.newCounts());
        for (RecordedFrame frame : frames) {
          String method = name(frame);
          if (seen.add(method)
              && PLUMBING.stream().noneMatch(method::startsWith)
              && !method.contains("$$Lambda")) {
            inclusive.merge(method, 1L, Long::sum);
            if (APPLICATION.stream().anyMatch(method::startsWith)) {
              perScenario.merge(method, 1L, Long::sum);
            }
          }
        }
      }
    }
    return new Profile(
        server, samples, self, categories, inclusive, byScenario, inclusiveByScenario);
  }

  private static String scenarioAt(Instant time, List<RunResult> runs) {
    long t = time.toEpochMilli();
    for (RunResult r : runs) {
      if (t >= r.windowStartMillis() && t <= r.windowEndMillis()) {
        return r.scenario() + " (" + r.target() + ")";
      }
    }
    return null;
  }

  private static String category(String method) {
    return CATEGORIES.stream()
        .filter(c -> method.startsWith(c.getKey()))
        .map(Map.Entry::getValue)
        .findFirst()
        .orElse("other");
  }

  private static String name(RecordedFrame frame) {
    return frame.getMethod().getType().getName() + "." + frame.getMethod().getName();
  }
}
