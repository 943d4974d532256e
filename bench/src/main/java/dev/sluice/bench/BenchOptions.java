package dev.sluice.bench;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** Command-line options, with the defaults of the suite bench/run.sh runs. */
public record BenchOptions(
    int clients,
    double warmupSeconds,
    double serverWarmupSeconds,
    int serverWarmupClients,
    double durationSeconds,
    int rounds,
    int tables,
    int pageSize,
    String scenarios,
    List<String> targets,
    String client,
    String heap,
    Path sluiceJvmOptions,
    boolean flightRecording,
    boolean interleave,
    double settleSeconds,
    Path repoRoot,
    Path resultsDir,
    Path workDir,
    String name,
    String externalUrl,
    String externalToken,
    String externalWarehouse,
    String postgresUrl,
    List<Integer> scale,
    int scaleRounds,
    List<Integer> history,
    int historyCommits,
    int historyBatch,
    int largeSnapshots,
    double startupSettleSeconds,
    int historyWarmup,
    double scaleWarmupSeconds,
    double soakSeconds,
    double soakIntervalSeconds,
    int soakClients,
    int planSnapshots,
    int planFiles,
    List<Integer> planClients,
    double planDurationSeconds,
    double planWarmupSeconds,
    String planIo) {

  public static final String USAGE =
      """
      Usage: BenchMain [options]
        --clients N            concurrent clients, each on its own keep-alive connection (16)
        --warmup S             seconds of warm-up before each measured run (1)
        --server-warmup S      before the suite, S seconds of unmeasured load per server, spread
                               over all scenarios (JIT warm-up; 0: off) (36)
        --server-warmup-clients N  clients during that warm-up: few, so that the JIT compiler
                               threads get CPU (2)
        --duration S           measured seconds per run (4)
        --rounds N             runs per scenario and target, alternating targets (2)
        --tables M             fixture tables for loadTable-spread and listTables-paged (100)
        --page-size P          listTables page size (20)
        --scenarios LIST       all, or a comma-separated subset of: loadTable-hot, loadTable-304,
                               loadTable-large, loadTable-large-304, loadTable-spread,
                               listTables-paged, createTable, commit-distinct, commit-shared,
                               sign-objects (all; a scenario runs only on targets that offer it:
                               sign-objects on sluice-signing, the 304 ones where loads carry an
                               ETag)
        --interleave           rounds outermost: round 1 of every scenario, then round 2, … (default:
                               all rounds of a scenario, then the next scenario)
        --targets LIST         reference, sluice, sluice-rbac, sluice-vended, sluice-signing,
                               sluice-pg, sluice-pg-vended, external (reference,sluice-rbac, then
                               sluice-vended if CEPH_RGW_ENDPOINT is set, sluice-pg if
                               --postgres-url is given, sluice-pg-vended if both are; bench/run.sh
                               sets both; sluice-signing, on RGW too, only if named)
        --postgres-url URL     JDBC URL of a PostgreSQL connection allowed to CREATE DATABASE:
                               sluice-pg runs in a fresh database made there for the run and
                               dropped after it (none)
        --scale LIST           after the suite, loadTable on sluice-rbac (and sluice-pg) with this
                               many tables in the catalog, seeded straight into the store; none:
                               skip (1000,100000,1000000)
        --scale-rounds N       runs per table count and target in the scale phase (1)
        --scale-warmup S       warm-up seconds of each scale-phase run, at least --warmup: the
                               database's pages of freshly seeded rows are read in it (4)
        --history LIST         after the suite, commit latency on a table holding this many
                               snapshots, on reference, sluice-rbac and sluice-pg (those run);
                               none: skip (500,2000)
        --history-commits K    commits timed per size and target; the table holds N..N+K-1
                               snapshots during them (200)
        --history-batch B      appends per commit request while growing a table, unmeasured
                               (100; 1: one commit per snapshot)
        --history-warmup N     single commits per target on a scratch table before the history
                               phase, unmeasured (JIT warm-up; 0: none) (200)
        --large-snapshots N    snapshots of the fixture's table bench_large.large, which
                               loadTable-large and loadTable-large-304 load; grown like the
                               history phase's tables, --history-batch per request (500)
        --plan-snapshots N     after the history phase, scan planning on sluice-rbac: a table of N
                               snapshots (fast appends, --history-batch per commit request),
                               planned by Iceberg's client on the client and on the server; 0:
                               skip (500)
        --plan-files F         data files of that table, F / N per append (10000)
        --plan-clients LIST    concurrent planners, each list entry a set of runs (1,4)
        --plan-duration S      measured seconds per plan run (10)
        --plan-warmup S        warm-up seconds per plan run; the same again per (scan, planning)
                               before the first run, unmeasured (2)
        --plan-io local|hadoop the plan phase's client FileIO: local = plain java.io files, as
                               Sluice reads the FILE warehouse; hadoop = Iceberg's default for
                               file: paths (HadoopFileIO: .crc checks, a chmod fork per file
                               written) (local)
        --client raw|jdk|loop  HTTP client of the load generator (loop): raw and jdk run a thread
                               per client (plain socket / java.net.http); loop drives all clients'
                               connections from one thread, as wrk does, for scenarios whose
                               operation is one request (the others fall back to raw threads).
                               Figures from different clients are not comparable
        --heap SIZE            -Xmx of the reference server (1g)
        --sluice-jvm-options F JVM flags of the Sluice processes: the launcher's own file, so that
                               memory and GC are what `./sluice serve` gives (server/jvm.options)
        --settle S             before each run, wait up to S seconds for other processes to use
                               < 0.1 cores (0: do not wait)
        --startup-settle S     before starting each server, the same wait: start-up time is a
                               reported figure (15; 0: do not wait)
        --jfr                  record both servers with JFR and add their hottest frames to the report
        --repo-root DIR        the Sluice checkout, with server/target built (.)
        --results-dir DIR      where the Markdown and CSV reports go (bench/results)
        --work-dir DIR         servers' data and logs (bench/target/bench-work)
        --name NAME            report file name without extension (bench-<timestamp>)
        --external-url URL     another Iceberg REST endpoint to measure as target "external"
                               (the part before /v1, e.g. http://127.0.0.1:8181/api/catalog)
        --external-token T     bearer token for it (none)
        --external-warehouse W warehouse query parameter for its /v1/config (none)
      Or a soak (issue 33), instead of the suite and its phases:
        --soak S               S seconds of loads, commits, create/drop churn and token grants at
                               once on each of --targets (Sluice targets only), one after the
                               other; writes <name>.md and .csv (0: no soak) (0)
        --soak-interval S      seconds per sample of RSS, threads, old generation after a full
                               GC and latencies (60)
        --soak-clients N       clients: a quarter writers, an eighth each churn and tokens, the
                               rest loads (8)
      Or: BenchMain --charts-from DIR/NAME.csv   redraw a report's charts (DIR/NAME-*.png) from
                               its CSV, without running anything
      """;

  public static BenchOptions parse(String[] args) {
    Map<String, String> values = new LinkedHashMap<>();
    List<String> flags = new ArrayList<>();
    for (int i = 0; i < args.length; i++) {
      String arg = args[i];
      if (!arg.startsWith("--")) {
        throw new IllegalArgumentException("Unexpected argument " + arg);
      }
      String key = arg.substring(2);
      if (key.equals("jfr") || key.equals("help") || key.equals("interleave")) {
        flags.add(key);
      } else if (i + 1 < args.length) {
        values.put(key, args[++i]);
      } else {
        throw new IllegalArgumentException(arg + " needs a value");
      }
    }
    if (flags.contains("help")) {
      throw new IllegalArgumentException("help");
    }
    Path repoRoot = Path.of(values.getOrDefault("repo-root", ".")).toAbsolutePath().normalize();
    BenchOptions options =
        new BenchOptions(
            Integer.parseInt(values.getOrDefault("clients", "16")),
            Double.parseDouble(values.getOrDefault("warmup", "1")),
            Double.parseDouble(values.getOrDefault("server-warmup", "36")),
            Integer.parseInt(values.getOrDefault("server-warmup-clients", "2")),
            Double.parseDouble(values.getOrDefault("duration", "4")),
            Integer.parseInt(values.getOrDefault("rounds", "2")),
            Integer.parseInt(values.getOrDefault("tables", "100")),
            Integer.parseInt(values.getOrDefault("page-size", "20")),
            values.getOrDefault("scenarios", "all"),
            List.of(
                values
                    .getOrDefault("targets", defaultTargets(values.get("postgres-url")))
                    .split(",")),
            values.getOrDefault("client", "loop"),
            values.getOrDefault("heap", "1g"),
            Path.of(
                values.getOrDefault(
                    "sluice-jvm-options", repoRoot.resolve("server/jvm.options").toString())),
            flags.contains("jfr"),
            flags.contains("interleave"),
            Double.parseDouble(values.getOrDefault("settle", "0")),
            repoRoot,
            Path.of(
                values.getOrDefault("results-dir", repoRoot.resolve("bench/results").toString())),
            Path.of(
                values.getOrDefault(
                    "work-dir", repoRoot.resolve("bench/target/bench-work").toString())),
            values.get("name"),
            values.get("external-url"),
            values.get("external-token"),
            values.get("external-warehouse"),
            values.get("postgres-url"),
            counts("--scale", values.getOrDefault("scale", "1000,100000,1000000")),
            Integer.parseInt(values.getOrDefault("scale-rounds", "1")),
            counts("--history", values.getOrDefault("history", "500,2000")),
            Integer.parseInt(values.getOrDefault("history-commits", "200")),
            Integer.parseInt(values.getOrDefault("history-batch", "100")),
            Integer.parseInt(values.getOrDefault("large-snapshots", "500")),
            Double.parseDouble(values.getOrDefault("startup-settle", "15")),
            Integer.parseInt(values.getOrDefault("history-warmup", "200")),
            Double.parseDouble(values.getOrDefault("scale-warmup", "4")),
            Double.parseDouble(values.getOrDefault("soak", "0")),
            Double.parseDouble(values.getOrDefault("soak-interval", "60")),
            Integer.parseInt(values.getOrDefault("soak-clients", "8")),
            Integer.parseInt(values.getOrDefault("plan-snapshots", "500")),
            Integer.parseInt(values.getOrDefault("plan-files", "10000")),
            counts("--plan-clients", values.getOrDefault("plan-clients", "1,4")),
            Double.parseDouble(values.getOrDefault("plan-duration", "10")),
            Double.parseDouble(values.getOrDefault("plan-warmup", "2")),
            values.getOrDefault("plan-io", "local"));
    Map<String, String> known = new LinkedHashMap<>(values);
    for (String k :
        List.of(
            "clients",
            "warmup",
            "server-warmup",
            "server-warmup-clients",
            "duration",
            "rounds",
            "tables",
            "page-size",
            "scenarios",
            "targets",
            "client",
            "heap",
            "sluice-jvm-options",
            "settle",
            "repo-root",
            "results-dir",
            "work-dir",
            "name",
            "external-url",
            "external-token",
            "external-warehouse",
            "postgres-url",
            "scale",
            "scale-rounds",
            "history",
            "history-commits",
            "history-batch",
            "large-snapshots",
            "startup-settle",
            "history-warmup",
            "scale-warmup",
            "soak",
            "soak-interval",
            "soak-clients",
            "plan-snapshots",
            "plan-files",
            "plan-clients",
            "plan-duration",
            "plan-warmup",
            "plan-io")) {
      known.remove(k);
    }
    if (!known.isEmpty()) {
      throw new IllegalArgumentException("Unknown option(s): " + known.keySet());
    }
    if (!List.of("raw", "jdk", "loop").contains(options.client)) {
      throw new IllegalArgumentException(
          "--client must be raw, jdk or loop, not " + options.client);
    }
    if (options.historyCommits < 1 || options.historyBatch < 1) {
      throw new IllegalArgumentException(
          "--history-commits and --history-batch must be positive, not "
              + options.historyCommits
              + " and "
              + options.historyBatch);
    }
    if (options.historyWarmup < 0) {
      throw new IllegalArgumentException(
          "--history-warmup must not be negative, not " + options.historyWarmup);
    }
    if (options.largeSnapshots < 0) {
      throw new IllegalArgumentException(
          "--large-snapshots must not be negative, not " + options.largeSnapshots);
    }
    if (!List.of("local", "hadoop").contains(options.planIo)) {
      throw new IllegalArgumentException(
          "--plan-io must be local or hadoop, not " + options.planIo);
    }
    if (options.planSnapshots < 0
        || (options.planSnapshots > 0
            && (options.planFiles < options.planSnapshots
                || options.planFiles % options.planSnapshots != 0))) {
      throw new IllegalArgumentException(
          "--plan-files must be a positive multiple of --plan-snapshots, not "
              + options.planFiles
              + " for "
              + options.planSnapshots);
    }
    if (options.targets.contains("external") && options.externalUrl == null) {
      throw new IllegalArgumentException("Target external needs --external-url");
    }
    return options;
  }

  private static String defaultTargets(String postgresUrl) {
    String rgw = System.getenv("CEPH_RGW_ENDPOINT");
    boolean s3 = rgw != null && !rgw.isEmpty();
    return "reference,sluice-rbac"
        + (s3 ? ",sluice-vended" : "")
        + (postgresUrl == null ? "" : ",sluice-pg")
        + (s3 && postgresUrl != null ? ",sluice-pg-vended" : "");
  }

  /**
   * Sizes for the scale ({@code --scale}) or history phase, or the plan phase's client counts,
   * ascending; empty for {@code none}.
   */
  private static List<Integer> counts(String option, String value) {
    if (value.equals("none")) {
      return List.of();
    }
    List<Integer> counts = new ArrayList<>();
    for (String part : value.split(",")) {
      int n = Integer.parseInt(part.trim());
      if (n < 1) {
        throw new IllegalArgumentException(option + " sizes must be positive: " + part);
      }
      counts.add(n);
    }
    return counts.stream().distinct().sorted().toList();
  }
}
