package dev.sluice.bench.report;

import dev.sluice.bench.ServerStats;
import dev.sluice.bench.load.RunResult;
import dev.sluice.bench.target.JvmSettings;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;

/**
 * The human-readable report: setup, results with ratios to the reference, resources, noise,
 * profiles.
 */
public final class MarkdownReport {
  private static final String REFERENCE = "reference";

  /** A run where other processes used more than this share of one core is flagged as noisy. */
  private static final double NOISY_CORES = 0.15;

  private final ReportInput in;
  private final List<Aggregate> aggregates;
  private final Charts.Images charts;
  private final StringBuilder md = new StringBuilder();

  private MarkdownReport(ReportInput in, List<Aggregate> aggregates, Charts.Images charts) {
    this.in = in;
    this.aggregates = aggregates;
    this.charts = charts;
  }

  /** Writes the report, embedding {@code charts} (PNG files beside it, {@link Charts#write}). */
  public static void write(
      Path file, ReportInput in, List<Aggregate> aggregates, Charts.Images charts)
      throws IOException {
    MarkdownReport report = new MarkdownReport(in, aggregates, charts);
    report.render();
    Files.writeString(file, report.md.toString());
  }

  private void render() {
    var o = in.options();
    line("# Sluice vs Iceberg's reference REST server");
    line("");
    line(
        "Run "
            + in.startedAt().withNano(0)
            + ", "
            + fmt("%.0f", in.wallSeconds())
            + " s wall time, commit `"
            + in.machine().gitCommit()
            + "`.");
    line("");
    line("## Setup");
    line("");
    line(
        "- Machine: "
            + in.machine().cores()
            + " cores (`nproc`), "
            + in.machine().cpuModel()
            + ", "
            + fmt("%.1f", in.machine().memoryMib() / 1024.0)
            + " GiB RAM, "
            + in.machine().os()
            + ".");
    line(
        "- Java: "
            + in.machine().java()
            + "; the reference `-Xmx"
            + o.heap()
            + "` and the JVM's default GC; Sluice the flags of its launcher (`"
            + String.join(" ", JvmSettings.readOptionsFile(o.sluiceJvmOptions()))
            + "`, from `"
            + o.repoRoot().relativize(o.sluiceJvmOptions().toAbsolutePath())
            + "`) and its class-data archive when `server/target` holds one; separate OS processes"
            + " on the same machine as the load generator (all share the cores).");
    line(
        "- Load: "
            + o.clients()
            + " concurrent clients, one HTTP/1.1 keep-alive connection each "
            + ClientSetup.describe(o.client(), in.runs())
            + ", closed loop; "
            + fmt("%.0f", o.warmupSeconds())
            + " s warm-up then "
            + fmt("%.0f", o.durationSeconds())
            + " s measured per run; "
            + o.rounds()
            + " rounds per scenario, targets alternating within each round ("
            + String.join(" → ", o.targets())
            + ")."
            + (o.interleave()
                ? " Rounds outermost (`--interleave`): round 1 of every scenario, then round 2, …."
                : "")
            + (o.serverWarmupSeconds() > 0
                ? " Before the first measurement, JIT warm-up: each server got "
                    + fmt("%.0f", o.serverWarmupSeconds())
                    + " s of unmeasured load from "
                    + o.serverWarmupClients()
                    + " clients, spread over all scenarios."
                : ""));
    line(
        "- Fixture: namespace `bench` with "
            + o.tables()
            + " one-column tables (format v2); listing page size "
            + o.pageSize()
            + "; namespace `bench_large` with table `large` grown to "
            + String.format(Locale.ROOT, "%,d", o.largeSnapshots())
            + " metadata-only snapshots ("
            + o.historyBatch()
            + " appends per commit request). Create and commit runs use fresh tables in their own"
            + " namespaces.");
    line(
        "- reference: Iceberg "
            + "1.10.0 `RESTCatalogServer` wiring (RESTServerCatalogAdapter + RESTCatalogServlet on"
            + " Jetty 11), JdbcCatalog on a SQLite file (default pool of 2 connections), HadoopFileIO on a local warehouse"
            + " (writes a .crc file beside each metadata file and, without Hadoop's native library, forks `chmod` for"
            + " each file it creates), no authentication; bound to 127.0.0.1.");
    line(
        "- Sluice, process `sluice`: embedded default (H2 file, FILE warehouse; the URL adds `AUTO_SERVER=TRUE` so that"
            + " the scale phase can write into the running store), access log off. Targets on it: `sluice` = root"
            + " principal's bearer token; `sluice-rbac` = a non-root principal whose only access is namespace grants"
            + " (TABLE_LIST, TABLE_CREATE, TABLE_READ_DATA, TABLE_WRITE_DATA) through principal role → catalog role;"
            + " `sluice-vended` = the same principal on a second catalog whose tables live on a real Ceph RGW (S3, same"
            + " machine), vending on every load/create/commit a credential from RGW's STS AssumeRole with a session policy"
            + " (`vendCredentials: always`; the cache is warm after a table's first load).");
    if (o.targets().contains("sluice-signing")) {
      line(
          "- `sluice-signing` (process `sluice`): the same non-root principal on a catalog on the Ceph RGW that"
              + " offers remote signing only (`delegation: [remote-signing]`, with the role: each signature made with"
              + " an STS session under its table's session policy, from the vending cache after the first AssumeRole"
              + " per table, principal and access mode); its "
              + o.tables()
              + " tables are seeded like the others'.");
    }
    line(
        "- Sluice, process `sluice-pg`: the same, on the private PostgreSQL of scripts/postgres-testbed.sh (same"
            + " machine, `fsync=off`), in a database created empty for this run and dropped after it; target"
            + " `sluice-pg` = the same non-root principal and grants"
            + (o.targets().contains("sluice-pg-vended")
                ? "; `sluice-pg-vended` = the same principal on a catalog of its own on the Ceph RGW"
                    + " (`bench_s3_pg`, beside `sluice-vended`'s in the bucket), vending as"
                    + " `sluice-vended` does (`vendCredentials: always`)."
                : "."));
    line(
        "- Quiet wait before each run (`--settle`): "
            + (o.settleSeconds() > 0
                ? "up to "
                    + fmt("%.0f", o.settleSeconds())
                    + " s for other processes to use < 0.1 cores."
                : "off."));
    line(
        "- Load average before / after: `"
            + in.loadAverageBefore()
            + "` / `"
            + in.loadAverageAfter()
            + "`.");
    line("");
    TargetsSection.render(in, aggregates, md);
    results();
    SigningSection.render(aggregates, md);
    ScaleSection.render(in, aggregates, md);
    md.append(charts.markdown("scale"));
    HistorySection.render(in, aggregates, md);
    PlanSection.render(in, aggregates, md);
    rounds();
    servers();
    noise();
    errors();
    profiles();
    scenarios();
    reading();
  }

  private void results() {
    line("## Results");
    line("");
    line(
        "Throughput = operations completed per second over all rounds; latency percentiles of all rounds' operations;"
            + " ratios are this row ÷ the reference (ops/s: higher is better; latency: lower is better). Server CPU ="
            + " the server process's CPU time during the measured windows ÷ operations.");
    line("");
    line(
        "| Scenario | Server | ops/s | p50 ms | p99 ms | p99.9 ms | ops/s ÷ ref | p50 ÷ ref | p99 ÷ ref | server CPU ms/op | conflicts/op |");
    line("|---|---|--:|--:|--:|--:|--:|--:|--:|--:|--:|");
    for (Aggregate a : aggregates) {
      Optional<Aggregate> ref = reference(a.scenario());
      boolean isRef = a.target().equals(REFERENCE);
      line(
          "| "
              + a.scenario()
              + " | "
              + a.target()
              + (a.errors() > 0 ? " ⚠ " + a.errors() + " errors" : "")
              + " | "
              + fmt("%.0f", a.throughput())
              + " | "
              + fmt("%.2f", a.percentileMillis(50))
              + " | "
              + fmt("%.2f", a.percentileMillis(99))
              + " | "
              + fmt("%.2f", a.percentileMillis(99.9))
              + " | "
              + (isRef || ref.isEmpty() ? "" : ratio(a.throughput(), ref.get().throughput()))
              + " | "
              + (isRef || ref.isEmpty()
                  ? ""
                  : ratio(a.percentileMillis(50), ref.get().percentileMillis(50)))
              + " | "
              + (isRef || ref.isEmpty()
                  ? ""
                  : ratio(a.percentileMillis(99), ref.get().percentileMillis(99)))
              + " | "
              + fmt("%.2f", a.serverCpuMillisPerOp())
              + " | "
              + (a.operations() == 0 ? "" : fmt("%.2f", (double) a.conflicts() / a.operations()))
              + " |");
    }
    line("");
    md.append(charts.markdown("throughput")).append(charts.markdown("latency"));
  }

  private void rounds() {
    line("### Throughput per round");
    line("");
    line(
        "Spread = (max − min) ÷ mean of the rounds; above ~10 % treat differences of that size as noise.");
    line("");
    StringBuilder header = new StringBuilder("| Scenario | Server |");
    StringBuilder rule = new StringBuilder("|---|---|");
    int rounds = Math.max(in.options().rounds(), in.options().scaleRounds());
    for (int r = 1; r <= rounds; r++) {
      header.append(" round ").append(r).append(" |");
      rule.append("--:|");
    }
    line(header + " spread |");
    line(rule + "--:|");
    for (Aggregate a : aggregates) {
      StringBuilder row = new StringBuilder("| " + a.scenario() + " | " + a.target() + " |");
      a.roundThroughputs().forEach(t -> row.append(' ').append(fmt("%.0f", t)).append(" |"));
      row.append(" |".repeat(rounds - a.roundThroughputs().size()));
      line(row + " " + fmt("%.0f", a.roundSpread() * 100) + " % |");
    }
    line("");
  }

  private void servers() {
    line("## Server processes");
    line("");
    line(
        "Read from /proc/PID/status (VmRSS, VmHWM) and /proc/PID/stat (utime + stime, plus cutime + cstime: child"
            + " processes the server ran, e.g. the `chmod` that Hadoop's local file system forks for every file the"
            + " reference writes) just before the servers were stopped. CPU in windows = summed over that server process's measured"
            + " windows (process `sluice` serves `sluice-rbac` and `sluice-vended`, `sluice-pg` serves `sluice-pg` and `sluice-pg-vended`, and so have more windows). PostgreSQL's"
            + " and RGW's own CPU is not in these rows (it is in *other CPU* under Noise).");
    line("");
    line(
        "| Server | start-up s | idle RSS MiB | RSS MiB | peak RSS MiB | CPU s (lifetime) | CPU s in measured windows | ops in windows | CPU ms/op |");
    line("|---|--:|--:|--:|--:|--:|--:|--:|--:|");
    for (ServerStats s : in.servers()) {
      double cpu = 0;
      long ops = 0;
      for (RunResult r : in.runs()) {
        if (ServerStats.serverOf(r.target(), in.servers().stream().map(ServerStats::name).toList())
            .equals(s.name())) {
          cpu += r.resources().serverCpuSeconds();
          ops += r.operations();
        }
      }
      line(
          "| "
              + s.name()
              + " | "
              + fmt("%.1f", s.startupSeconds())
              + " | "
              + fmt("%.0f", s.idleRssKib() / 1024.0)
              + " | "
              + fmt("%.0f", s.rssKib() / 1024.0)
              + " | "
              + fmt("%.0f", s.peakRssKib() / 1024.0)
              + " | "
              + fmt("%.1f", s.cpuSeconds())
              + " | "
              + fmt("%.1f", cpu)
              + " | "
              + ops
              + " | "
              + (ops == 0 ? "" : fmt("%.3f", cpu * 1000 / ops))
              + " |");
    }
    line("");
    line(
        "Start-up includes the JVM and, for Sluice, database migrations and the bootstrap catalog; it is measured"
            + " until the first successful health/config request. Idle RSS: 2 s after that, before the fixture is created.");
    line("");
  }

  private void noise() {
    line("## Noise");
    line("");
    double worst = 0;
    String worstRun = "";
    int noisy = 0;
    double clientCores = 0;
    for (RunResult r : in.runs()) {
      double other = r.resources().otherCpuSeconds() / r.seconds();
      clientCores += r.resources().clientCpuSeconds() / r.seconds();
      if (other > worst) {
        worst = other;
        worstRun = r.scenario() + " round " + r.round() + " " + r.target();
      }
      if (other > NOISY_CORES) {
        noisy++;
      }
    }
    line(
        "Other processes' CPU during the measured windows (machine busy time − server − load generator, from"
            + " /proc/stat; kernel threads writing back the server's files count here too, so write scenarios show"
            + " some even on a quiet machine): "
            + noisy
            + " of "
            + in.runs().size()
            + " runs above "
            + fmt("%.2f", NOISY_CORES)
            + " cores; worst "
            + fmt("%.2f", worst)
            + " cores ("
            + worstRun
            + "). The load generator itself used "
            + fmt("%.2f", clientCores / Math.max(1, in.runs().size()))
            + " cores on average.");
    line("");
    if (noisy > 0) {
      line("| Scenario | Round | Server | other CPU (cores) |");
      line("|---|--:|---|--:|");
      for (RunResult r : in.runs()) {
        double other = r.resources().otherCpuSeconds() / r.seconds();
        if (other > NOISY_CORES) {
          line(
              "| "
                  + r.scenario()
                  + " | "
                  + r.round()
                  + " | "
                  + r.target()
                  + " | "
                  + fmt("%.2f", other)
                  + " |");
        }
      }
      line("");
    }
  }

  private void errors() {
    List<Aggregate> failing =
        aggregates.stream().filter(a -> a.errors() > 0 || !a.errorSamples().isEmpty()).toList();
    if (failing.isEmpty()) {
      return;
    }
    line("## Errors");
    line("");
    for (Aggregate a : failing) {
      line(
          "- "
              + a.scenario()
              + " / "
              + a.target()
              + ": "
              + a.errors()
              + " failed operations in the windows; e.g. "
              + String.join(
                  "; ",
                  a.errorSamples().stream().map(s -> "`" + s.replace('`', '\'') + "`").toList()));
    }
    line("");
  }

  private void profiles() {
    if (in.profiles().isEmpty()) {
      return;
    }
    line("## Where the servers spend CPU (JFR execution samples in the measured windows)");
    line("");
    line(
        "JFR's sampler sees Java threads running Java code (not I/O waits, not GC threads). Self = the method on top"
            + " of the stack; inclusive = samples with the method anywhere on the stack (thread entry, Jetty's dispatch"
            + " chain and lambda frames left out).");
    line("");
    for (Profile p : in.profiles()) {
      line("### " + p.server() + " (" + p.samples() + " samples)");
      line("");
      line("| Self, by layer | % |");
      line("|---|--:|");
      for (Map.Entry<String, Long> e : Profile.top(p.selfByCategory(), 20)) {
        line("| " + e.getKey() + " | " + pct(e.getValue(), p.samples()) + " |");
      }
      line("");
      line("| Self | % |");
      line("|---|--:|");
      for (Map.Entry<String, Long> e : Profile.top(p.self(), 15)) {
        line("| `" + e.getKey() + "` | " + pct(e.getValue(), p.samples()) + " |");
      }
      line("");
      line("| Inclusive | % |");
      line("|---|--:|");
      for (Map.Entry<String, Long> e : Profile.top(p.inclusive(), 30)) {
        line("| `" + e.getKey() + "` | " + pct(e.getValue(), p.samples()) + " |");
      }
      line("");
      line(
          "<details><summary>Per scenario, inclusive, top 20 frames of the catalog's own layers (Sluice or"
              + " Iceberg's adapter, Iceberg core, the database, JWT)</summary>");
      line("");
      for (Map.Entry<String, Long> s : Profile.top(p.samplesByScenario(), 100)) {
        line("**" + s.getKey() + "** (" + s.getValue() + " samples)");
        line("");
        for (Map.Entry<String, Long> e : Profile.top(p.inclusiveByScenario().get(s.getKey()), 20)) {
          line("- `" + e.getKey() + "` " + pct(e.getValue(), s.getValue()));
        }
        line("");
      }
      line("</details>");
      line("");
    }
  }

  private void scenarios() {
    line("## Scenarios");
    line("");
    in.scenarioDescriptions()
        .forEach((name, description) -> line("- **" + name + "**: " + description + "."));
    line("");
  }

  private void reading() {
    line("## Reading this");
    line("");
    line(
        "- All processes share "
            + in.machine().cores()
            + " cores: a server that needs less CPU per operation leaves"
            + " more to the others, and the load generator's own CPU grows with throughput. Compare *server CPU ms/op*"
            + " for cost, ops/s and latency for what a client sees.");
    line(
        "- Closed loop: each client waits for its answer before sending again, so latency ≈ clients ÷ throughput"
            + " plus queueing; there is no coordinated omission to correct because no request rate is promised.");
    line(
        "- Commit scenarios: one operation is one landed append; `conflicts/op` counts the 409s (and reloads) it"
            + " took. Snapshots accumulate during a run (no expiry), so later commits write larger metadata files.");
    line("- CSV with every run: next to this file.");
  }

  private Optional<Aggregate> reference(String scenario) {
    return aggregates.stream()
        .filter(a -> a.scenario().equals(scenario) && a.target().equals(REFERENCE))
        .findFirst();
  }

  private static String ratio(double value, double reference) {
    return reference == 0 || Double.isNaN(value) || Double.isNaN(reference)
        ? ""
        : fmt("%.2f", value / reference) + "×";
  }

  private static String pct(long count, long total) {
    return total == 0 ? "" : fmt("%.1f", 100.0 * count / total);
  }

  /** A number for the report; "–" where there is none (no operations: NaN, or a ratio to zero). */
  static String fmt(String format, double value) {
    return Double.isNaN(value) || Double.isInfinite(value)
        ? "–"
        : String.format(Locale.ROOT, format, value);
  }

  private void line(String s) {
    md.append(s).append('\n');
  }
}
