package dev.sluice.bench.soak;

import dev.sluice.bench.report.MachineInfo;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.ZonedDateTime;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.stream.Collectors;

/**
 * The soak's report: per target, the writers' verdict, the trend from the end of the first interval
 * (warm-up: JIT, caches, pools filling) to the last, and one row per interval; and a CSV with the
 * same rows.
 */
public final class SoakReport {
  private SoakReport() {}

  public static void write(
      Path markdown,
      Path csv,
      ZonedDateTime startedAt,
      MachineInfo machine,
      String command,
      List<SoakResult> results)
      throws IOException {
    List<String> md = new ArrayList<>();
    md.add("# Soak: loads, commits, create/drop churn and token grants at once");
    md.add("");
    md.add(
        String.format(
            "Started %s on %d cores (%s), %,d MiB; %s; commit %s. Command: `%s`.",
            startedAt,
            machine.cores(),
            machine.cpuModel(),
            machine.memoryMib(),
            machine.java(),
            machine.gitCommit(),
            command));
    md.add("");
    md.add(
        "Each client does one kind of work in a closed loop on its own keep-alive connection. A"
            + " writer is the only writer of its table: after "
            + SoakWriter.PER_TABLE
            + " appends it reads the table back, counts the acknowledged snapshots the table does"
            + " not hold as lost, and moves to a fresh table. At the end of each interval the"
            + " server's RSS and threads are read from /proc, and its old generation after a full"
            + " collection (`jcmd GC.run`, then `GC.heap_info`): what survives a full collection"
            + " is the live set, so a leak shows as that column growing. The first interval is the"
            + " warm-up: the memory trend starts at its end, the latency trend with the second.");
    for (SoakResult r : results) {
      target(md, r);
    }
    Files.writeString(markdown, String.join("\n", md) + "\n");
    Files.writeString(csv, csv(results));
  }

  private static void target(List<String> md, SoakResult r) {
    md.add("");
    md.add("## " + r.target());
    md.add("");
    md.add(
        "Clients: "
            + r.clients().entrySet().stream()
                .map(e -> e.getValue() + " " + e.getKey().label())
                .collect(Collectors.joining(", "))
            + String.format("; %d intervals of %.0f s.", r.samples().size(), r.intervalSeconds()));
    md.add("");
    md.add(
        String.format(
            "- **Appends acknowledged and read back: %,d; lost: %d.** Operations: %,d; errors: %d%s",
            r.verifiedAppends(),
            r.lostAppends(),
            r.operations(),
            r.errors(),
            r.errorSamples().isEmpty()
                ? "."
                : " ("
                    + r.errorSamples().stream().sorted().collect(Collectors.joining("; "))
                    + ")."));
    List<SoakSample> s = r.samples();
    SoakSample first = s.get(0);
    SoakSample last = s.get(s.size() - 1);
    // The first interval's latencies include the warm-up (JIT, caches, pools filling); its end is
    // where the memory trend starts.
    SoakSample warm = s.get(Math.min(1, s.size() - 1));
    md.add(
        String.format(
            Locale.ROOT,
            "- From the end of interval %d to the end of interval %d: RSS %s → %s MiB; threads %d →"
                + " %d; old generation after GC %s → %s MiB (least-squares slope %s MiB per"
                + " interval). p99 of all operations in interval %d: %.2f ms, in interval %d: %.2f"
                + " ms (%.2f×).",
            first.index(),
            last.index(),
            mib(first.rssKib()),
            mib(last.rssKib()),
            first.threads(),
            last.threads(),
            mib(first.oldGenKib()),
            mib(last.oldGenKib()),
            slope(s),
            warm.index(),
            warm.p99AllMicros() / 1000.0,
            last.index(),
            last.p99AllMicros() / 1000.0,
            warm.p99AllMicros() == 0
                ? Double.NaN
                : (double) last.p99AllMicros() / warm.p99AllMicros()));
    if (!r.liveSetGrowth().isEmpty()) {
      md.add(
          "- Live set growth by class from the end of interval 1 to the end (`GC.class_histogram`),"
              + " MiB: "
              + r.liveSetGrowth().stream()
                  .map(
                      g ->
                          String.format(
                              Locale.ROOT,
                              "`%s` %s → %s",
                              g.className(),
                              mib(g.firstBytes() / 1024),
                              mib(g.lastBytes() / 1024)))
                  .collect(Collectors.joining(", "))
              + ".");
    }
    md.add("");
    StringBuilder head = new StringBuilder("| interval | end s | ops/s |");
    StringBuilder rule = new StringBuilder("|---:|---:|---:|");
    for (SoakKind kind : SoakKind.values()) {
      head.append(' ').append(kind.label()).append(" p50 / p99 ms |");
      rule.append("---:|");
    }
    head.append(" all p99 ms | errors | server CPU | RSS MiB | threads | old gen after GC, MiB |");
    rule.append("---:|---:|---:|---:|---:|---:|");
    md.add(head.toString());
    md.add(rule.toString());
    for (SoakSample x : s) {
      StringBuilder row =
          new StringBuilder(
              String.format(
                  Locale.ROOT,
                  "| %d | %.0f | %,.0f |",
                  x.index(),
                  x.endSeconds(),
                  x.totalOperations() / r.intervalSeconds()));
      for (SoakKind kind : SoakKind.values()) {
        row.append(
            String.format(
                Locale.ROOT,
                " %.2f / %.2f |",
                x.p50Micros().get(kind) / 1000.0,
                x.p99Micros().get(kind) / 1000.0));
      }
      row.append(
          String.format(
              Locale.ROOT,
              " %.2f | %d | %.0f %% | %s | %d | %s |",
              x.p99AllMicros() / 1000.0,
              x.totalErrors(),
              100 * x.serverCpuSeconds() / r.intervalSeconds(),
              mib(x.rssKib()),
              x.threads(),
              mib(x.oldGenKib())));
      md.add(row.toString());
    }
  }

  /** Least-squares slope of the old generation (MiB per interval); "n/a" under two points. */
  static String slope(List<SoakSample> samples) {
    List<SoakSample> known = samples.stream().filter(x -> x.oldGenKib() >= 0).toList();
    if (known.size() < 2) {
      return "n/a";
    }
    double n = known.size();
    double sx = 0;
    double sy = 0;
    double sxx = 0;
    double sxy = 0;
    for (SoakSample x : known) {
      double mib = x.oldGenKib() / 1024.0;
      sx += x.index();
      sy += mib;
      sxx += (double) x.index() * x.index();
      sxy += x.index() * mib;
    }
    return String.format(Locale.ROOT, "%+.2f", (n * sxy - sx * sy) / (n * sxx - sx * sx));
  }

  private static String mib(long kib) {
    return kib < 0 ? "?" : String.format(Locale.ROOT, "%.1f", kib / 1024.0);
  }

  private static String csv(List<SoakResult> results) {
    StringBuilder out =
        new StringBuilder("target,interval,end_s,kind,operations,errors,p50_ms,p99_ms,");
    out.append("all_p99_ms,server_cpu_s,rss_mib,threads,old_gen_after_gc_mib\n");
    for (SoakResult r : results) {
      for (SoakSample x : r.samples()) {
        for (SoakKind kind : SoakKind.values()) {
          out.append(
              String.format(
                  Locale.ROOT,
                  "%s,%d,%.1f,%s,%d,%d,%.3f,%.3f,%.3f,%.2f,%s,%d,%s%n",
                  r.target(),
                  x.index(),
                  x.endSeconds(),
                  kind.label(),
                  x.operations().get(kind),
                  x.errors().get(kind),
                  x.p50Micros().get(kind) / 1000.0,
                  x.p99Micros().get(kind) / 1000.0,
                  x.p99AllMicros() / 1000.0,
                  x.serverCpuSeconds(),
                  mib(x.rssKib()),
                  x.threads(),
                  mib(x.oldGenKib())));
        }
      }
    }
    return out.toString();
  }
}
