package dev.sluice.bench;

import dev.sluice.bench.catalog.CatalogCalls;
import dev.sluice.bench.http.HttpClients;
import dev.sluice.bench.http.HttpConnection;
import dev.sluice.bench.http.RequestEncoder;
import dev.sluice.bench.load.EventLoopRunner;
import dev.sluice.bench.load.LoadRunner;
import dev.sluice.bench.load.QuietWait;
import dev.sluice.bench.load.RequestSource;
import dev.sluice.bench.load.ResourceProbe;
import dev.sluice.bench.load.RunResult;
import dev.sluice.bench.load.Workload;
import dev.sluice.bench.scale.TableSeeder;
import dev.sluice.bench.scenario.Fixture;
import dev.sluice.bench.scenario.LoadTableScale;
import dev.sluice.bench.scenario.Scenario;
import dev.sluice.bench.scenario.ScenarioContext;
import dev.sluice.bench.target.Endpoint;
import java.io.IOException;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The measurement plan: for each scenario, {@code rounds} rounds, and in each round every target
 * once, one after the other (reference, sluice, sluice-rbac, reference, …), so that slow drifts of
 * the machine (another process, thermal state, page cache) fall on all targets alike.
 */
final class Suite {
  private static final int WARMUP_ROUNDS = 100;

  private final BenchOptions options;
  private final Load load;

  /** Scenarios that {@code --client loop} could not run on the loop (announced once each). */
  private final Set<String> fellBack = new HashSet<>();

  Suite(BenchOptions options) {
    this.options = options;
    this.load = new Load(options.clients(), options.warmupSeconds(), options.durationSeconds());
  }

  /** How hard and how long one run loads its target. */
  private record Load(int clients, double warmupSeconds, double measureSeconds) {}

  List<RunResult> run(List<Scenario> scenarios, List<Target> targets)
      throws IOException, InterruptedException {
    List<Long> serverPids =
        targets.stream().map(Target::serverPid).filter(pid -> pid > 0).distinct().toList();
    QuietWait quiet = new QuietWait(serverPids, options.settleSeconds(), 0.1);
    Map<Scenario, List<Target>> runsOn = applicable(scenarios, targets);
    warmUp(scenarios, targets, runsOn);
    List<RunResult> results = new ArrayList<>();
    for (Step step : plan(scenarios)) {
      for (Target target : runsOn.get(step.scenario())) {
        double waited = quiet.await();
        if (waited >= 1) {
          System.out.printf("waited %.0f s for other processes to quiet down%n", waited);
        }
        RunResult result = runOnce(step.scenario(), target, step.round());
        results.add(result);
        System.out.println(Progress.line(result, options.client()));
      }
    }
    return results;
  }

  /** One round of one scenario, run on every target it applies to. */
  private record Step(Scenario scenario, int round) {}

  /**
   * Every scenario's rounds one after the other; with {@code --interleave}, round 1 of every
   * scenario, then round 2, …, so that a drift of the machine (a test suite starting beside) falls
   * on the scenarios alike and their ratios on one target stay fair.
   */
  private List<Step> plan(List<Scenario> scenarios) {
    List<Step> steps = new ArrayList<>();
    if (options.interleave()) {
      for (int round = 1; round <= options.rounds(); round++) {
        for (Scenario scenario : scenarios) {
          steps.add(new Step(scenario, round));
        }
      }
    } else {
      for (Scenario scenario : scenarios) {
        for (int round = 1; round <= options.rounds(); round++) {
          steps.add(new Step(scenario, round));
        }
      }
    }
    return steps;
  }

  /** The targets each scenario runs on: those it applies to ({@link Scenario#appliesTo}). */
  private Map<Scenario, List<Target>> applicable(List<Scenario> scenarios, List<Target> targets)
      throws IOException {
    Map<Scenario, List<Target>> runsOn = new LinkedHashMap<>();
    for (Scenario scenario : scenarios) {
      List<Target> on = new ArrayList<>();
      for (Target target : targets) {
        try (Setup setup = context(target, 0)) {
          if (scenario.appliesTo(setup.context())) {
            on.add(target);
          } else {
            System.out.printf(
                "skipping %s on %s: not offered there%n", scenario.name(), target.name());
          }
        }
      }
      runsOn.put(scenario, on);
    }
    return runsOn;
  }

  /**
   * Before anything is measured, every scenario on every target, unmeasured: each server gets
   * {@code --server-warmup} seconds of load in all, spread evenly over the scenarios (and over the
   * targets it serves), so both servers get the same warm-up. Why: on 2 cores a JVM has one C2
   * compiler thread, and a fresh Sluice kept it busy for 30+ s of load (measured with JFR
   * compilation events) while throughput rose fivefold; the reference, with less code on its path,
   * warms sooner. The warm-up runs with few clients ({@code --server-warmup-clients}) so that
   * request threads do not starve the compiler thread of CPU.
   */
  private void warmUp(
      List<Scenario> scenarios, List<Target> targets, Map<Scenario, List<Target>> runsOn)
      throws IOException, InterruptedException {
    if (options.serverWarmupSeconds() <= 0) {
      return;
    }
    for (Target target : targets) {
      long sameServer = targets.stream().filter(t -> t.serverPid() == target.serverPid()).count();
      List<Scenario> own = scenarios.stream().filter(s -> runsOn.get(s).contains(target)).toList();
      if (own.isEmpty()) {
        continue;
      }
      double seconds = options.serverWarmupSeconds() / sameServer / own.size();
      System.out.printf(
          "warming up %s: %d scenarios × %.1f s%n", target.name(), own.size(), seconds);
      Load warmup = new Load(options.serverWarmupClients(), seconds, 0);
      for (Scenario scenario : own) {
        // Rounds from WARMUP_ROUNDS on: fresh table names, never mixed with measured rounds.
        runOnce(scenario, target, WARMUP_ROUNDS, warmup);
      }
    }
  }

  /** A target of the scale phase and the seeder that writes into its server's store. */
  record ScaleTarget(Target target, TableSeeder seeder) {}

  /**
   * The scale phase: for each count, grows the scale namespace of every target's store to that many
   * tables (straight in the store, while the server runs) and measures loads spread over all of
   * them, then (above {@value LoadTableScale#WORKING_SET} tables) loads among a working set of
   * {@value #LoadTableScale.WORKING_SET} of them, {@code --scale-rounds} rounds alternating the
   * targets. The servers are warm from the suite; each run still has its warm-up.
   */
  List<RunResult> runScale(
      List<ScaleTarget> scaleTargets, List<Integer> counts, Map<String, String> descriptions)
      throws IOException, InterruptedException, SQLException {
    // A longer warm-up (--scale-warmup): right after a bulk insert the database's page cache holds
    // the new rows' pages only partly; what is measured is a catalog in use, with its pages read at
    // least once.
    Load scaleLoad =
        new Load(
            options.clients(),
            Math.max(options.warmupSeconds(), options.scaleWarmupSeconds()),
            options.durationSeconds());
    List<RunResult> results = new ArrayList<>();
    for (int count : counts) {
      LoadTableScale scenario = new LoadTableScale(count);
      StringBuilder seeding = new StringBuilder();
      for (ScaleTarget t : scaleTargets) {
        double seconds = t.seeder().growTo(count);
        seeding
            .append(seeding.length() == 0 ? "" : ", ")
            .append(t.target().name())
            .append(' ')
            .append(String.format("%.1f", seconds))
            .append(" s");
        System.out.printf(
            "scale: %,d tables in %s of %s (seeded in %.1f s)%n",
            count, Fixture.SCALE_NAMESPACE, t.target().name(), seconds);
      }
      descriptions.put(scenario.name(), scenario.description() + "; seeding took " + seeding);
      List<LoadTableScale> scenarios = new ArrayList<>(List.of(scenario));
      if (count > LoadTableScale.WORKING_SET) {
        LoadTableScale hot = new LoadTableScale(count, LoadTableScale.WORKING_SET);
        scenarios.add(hot);
        descriptions.put(hot.name(), hot.description());
      }
      for (LoadTableScale s : scenarios) {
        for (int round = 1; round <= options.scaleRounds(); round++) {
          for (ScaleTarget t : scaleTargets) {
            RunResult result = runOnce(s, t.target(), round, scaleLoad);
            results.add(result);
            System.out.println(Progress.line(result, options.client()));
          }
        }
      }
    }
    return results;
  }

  private RunResult runOnce(Scenario scenario, Target target, int round)
      throws IOException, InterruptedException {
    return runOnce(scenario, target, round, load);
  }

  /** A scenario's context on a target, with the setup connection it holds (closed with it). */
  private record Setup(ScenarioContext context, HttpClients clients, HttpConnection connection)
      implements AutoCloseable {
    @Override
    public void close() {
      connection.close();
      clients.close();
    }
  }

  private Setup context(Target target, int round) {
    HttpClients setupClients = target.endpoint().clients("raw");
    HttpConnection setup = setupClients.open();
    ScenarioContext context =
        new ScenarioContext(
            target.endpoint(),
            new CatalogCalls(target.endpoint(), setup),
            round,
            options.clients(),
            options.tables(),
            options.pageSize());
    return new Setup(context, setupClients, setup);
  }

  /**
   * One run: on the event loop if {@code --client loop} and the scenario has a single-request form,
   * else on threads with blocking connections ({@code --client loop} falls back to {@code raw}).
   */
  private RunResult runOnce(Scenario scenario, Target target, int round, Load load)
      throws IOException, InterruptedException {
    try (Setup setup = context(target, round)) {
      Workload workload = scenario.prepare(setup.context());
      ResourceProbe probe = new ResourceProbe(target.serverPid());
      Endpoint endpoint = target.endpoint();
      if (options.client().equals("loop")) {
        List<RequestSource> sources = loopSources(workload, load.clients(), endpoint);
        if (sources != null) {
          return new EventLoopRunner(load.warmupSeconds(), load.measureSeconds())
              .run(
                  scenario.name(),
                  target.name(),
                  round,
                  sources,
                  endpoint.host(),
                  endpoint.port(),
                  probe);
        }
        if (fellBack.add(scenario.name())) {
          System.out.printf(
              "%s has no single-request form for the event loop: it runs on threads with the raw"
                  + " client%n",
              scenario.name());
        }
      }
      try (HttpClients clients =
          endpoint.clients(options.client().equals("loop") ? "raw" : options.client())) {
        return new LoadRunner(load.clients(), load.warmupSeconds(), load.measureSeconds())
            .run(scenario.name(), target.name(), round, workload, clients, probe);
      }
    }
  }

  /** Each client's requests for the event loop; null if the workload has no such form. */
  private static List<RequestSource> loopSources(
      Workload workload, int clients, Endpoint endpoint) {
    RequestEncoder encoder =
        new RequestEncoder(endpoint.host(), endpoint.port(), endpoint.authorization());
    List<RequestSource> sources = new ArrayList<>();
    for (int i = 0; i < clients; i++) {
      RequestSource source = workload.requests(i, encoder);
      if (source == null) {
        return null;
      }
      sources.add(source);
    }
    return sources;
  }
}
