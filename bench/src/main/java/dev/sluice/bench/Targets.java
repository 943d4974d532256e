package dev.sluice.bench;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.sluice.bench.catalog.CatalogCalls;
import dev.sluice.bench.http.HttpClients;
import dev.sluice.bench.http.HttpConnection;
import dev.sluice.bench.load.QuietWait;
import dev.sluice.bench.scenario.Fixture;
import dev.sluice.bench.target.Endpoint;
import dev.sluice.bench.target.FreshPostgresDatabase;
import dev.sluice.bench.target.JvmSettings;
import dev.sluice.bench.target.ProcStats;
import dev.sluice.bench.target.ReferenceLauncher;
import dev.sluice.bench.target.RunningServer;
import dev.sluice.bench.target.S3TestBed;
import dev.sluice.bench.target.SluiceAccess;
import dev.sluice.bench.target.SluiceConfigs;
import dev.sluice.bench.target.SluiceLauncher;
import java.io.IOException;
import java.net.URI;
import java.nio.file.Path;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Starts the servers the chosen targets need, seeds each with the fixture, and names the targets:
 * {@code reference} (no auth), {@code sluice} (root token), {@code sluice-rbac} (a principal whose
 * access comes only from namespace grants), {@code sluice-vended} (the same principal on an S3
 * catalog on Ceph RGW, every load vending a credential), {@code sluice-signing} (the same principal
 * on an S3 catalog on RGW that offers remote signing only), {@code sluice-pg} (a second Sluice on
 * PostgreSQL, same principal and grants), {@code sluice-pg-vended} (that Sluice's own S3 catalog on
 * RGW, vending as {@code sluice-vended} does), {@code external} (any endpoint).
 */
final class Targets implements AutoCloseable {
  static final String SLUICE_CATALOG = "quickstart";
  static final String VENDED_CATALOG = "bench_s3";
  static final String SIGNING_CATALOG = "bench_sign";
  static final String PG_VENDED_CATALOG = "bench_s3_pg";

  private final Map<String, Target> targets = new LinkedHashMap<>();
  private final Map<String, RunningServer> servers = new LinkedHashMap<>();
  private final Map<String, Double> startupSeconds = new LinkedHashMap<>();
  private final Map<String, Long> idleRssKib = new LinkedHashMap<>();
  private final Map<String, String> scaleDatabases = new LinkedHashMap<>();

  /** sluice-pg's database, made for this run on --postgres-url's server (null: no sluice-pg). */
  private FreshPostgresDatabase postgres;

  static Targets start(BenchOptions options, Path workDir)
      throws IOException, InterruptedException {
    Targets t = new Targets();
    try {
      t.startAll(options, workDir);
      return t;
    } catch (IOException | InterruptedException | RuntimeException e) {
      t.close();
      throw e;
    }
  }

  private void startAll(BenchOptions options, Path workDir)
      throws IOException, InterruptedException {
    JvmSettings jvm =
        new JvmSettings(
            options.heap(),
            JvmSettings.readOptionsFile(options.sluiceJvmOptions()),
            options.flightRecording());
    List<String> wanted = options.targets();
    if (wanted.contains("reference")) {
      RunningServer reference =
          timed("reference", options, () -> ReferenceLauncher.start(jvm, workDir));
      Endpoint endpoint = configured(reference.anonymous(), null);
      seed(endpoint, options);
      targets.put("reference", new Target(endpoint, reference.process().pid()));
    }
    boolean vended = wanted.contains("sluice-vended");
    boolean signing = wanted.contains("sluice-signing");
    boolean pgVended = wanted.contains("sluice-pg-vended");
    S3TestBed s3 = vended || signing || pgVended ? S3TestBed.fromEnvironment() : null;
    if (s3 != null) {
      s3.createBucket(S3TestBed.BUCKET);
    }
    if (wanted.contains("sluice")
        || wanted.contains("sluice-rbac")
        || vended
        || signing
        || !options.scale().isEmpty()) {
      String config = SluiceConfigs.embedded(vended || signing ? s3 : null);
      Sluice sluice = startSluice(options, jvm, workDir, "sluice", config);
      scaleDatabases.put("sluice-rbac", SluiceConfigs.embeddedUrl(workDir.resolve("sluice/data")));
      if (wanted.contains("sluice")) {
        targets.put("sluice", new Target(sluice.asRoot(), sluice.pid()));
      }
      targets.put(
          "sluice-rbac",
          new Target(sluice.asRoot().as("sluice-rbac", sluice.granted()), sluice.pid()));
      if (vended) {
        addS3Target(
            sluice, "sluice-vended", VENDED_CATALOG, s3.catalogBody(VENDED_CATALOG), options);
      }
      if (signing) {
        addS3Target(
            sluice,
            "sluice-signing",
            SIGNING_CATALOG,
            s3.signingCatalogBody(SIGNING_CATALOG),
            options);
      }
    }
    if (wanted.contains("sluice-pg") || pgVended) {
      if (options.postgresUrl() == null) {
        throw new IllegalArgumentException(
            "Targets sluice-pg and sluice-pg-vended need a PostgreSQL: --postgres-url (bench/run.sh"
                + " starts one)");
      }
      try {
        postgres = FreshPostgresDatabase.create(options.postgresUrl());
      } catch (SQLException e) {
        throw new IOException(
            "Cannot create sluice-pg's database through --postgres-url (it needs a connection"
                + " allowed to CREATE DATABASE): "
                + e.getMessage(),
            e);
      }
      System.out.printf("sluice-pg: fresh PostgreSQL database %s%n", postgres.name());
      String config = SluiceConfigs.postgres(postgres.url(), pgVended ? s3 : null);
      Sluice pg = startSluice(options, jvm, workDir, "sluice-pg", config);
      targets.put("sluice-pg", new Target(pg.asRoot().as("sluice-pg", pg.granted()), pg.pid()));
      scaleDatabases.put("sluice-pg", SluiceConfigs.batchInserts(postgres.url()));
      if (pgVended) {
        // A catalog of its own name, hence its own prefix in the bucket: sluice-vended's catalog
        // on the other process writes under s3://sluice-bench/bench_s3, this one beside it.
        addS3Target(
            pg, "sluice-pg-vended", PG_VENDED_CATALOG, s3.catalogBody(PG_VENDED_CATALOG), options);
      }
    }
    if (wanted.contains("external")) {
      URI uri = URI.create(options.externalUrl());
      Endpoint bare =
          new Endpoint(
              "external",
              uri.getHost(),
              uri.getPort() < 0 ? 80 : uri.getPort(),
              uri.getPath().replaceAll("/$", ""),
              "",
              options.externalToken() == null ? null : "Bearer " + options.externalToken());
      Endpoint endpoint = configured(bare, options.externalWarehouse());
      seed(endpoint, options);
      targets.put("external", new Target(endpoint, -1));
    }
  }

  /**
   * A target on an S3 catalog of {@code sluice}: the catalog created from {@code body}, seeded with
   * the fixture as root, and the fixture's namespace grants given to the granted principal.
   */
  private void addS3Target(
      Sluice sluice, String name, String catalog, ObjectNode body, BenchOptions options)
      throws IOException {
    sluice.access().createCatalog(sluice.root(), body);
    Endpoint asRoot = configured(sluice.asRoot().as(name, sluice.root()), catalog);
    seed(asRoot, options);
    sluice.access().grantNamespaces(sluice.root(), catalog, Fixture.NAMESPACES);
    targets.put(name, new Target(asRoot.as(name, sluice.granted()), sluice.pid()));
  }

  /** A started, seeded Sluice: its root and its granted principal's Authorization headers. */
  private record Sluice(
      SluiceAccess access, long pid, String root, Endpoint asRoot, String granted) {}

  /**
   * Starts a Sluice process, seeds its quickstart catalog with the fixture as root, and creates the
   * non-root principal with the fixture's namespace grants.
   */
  private Sluice startSluice(
      BenchOptions options, JvmSettings jvm, Path workDir, String name, String config)
      throws IOException, InterruptedException {
    RunningServer server =
        timed(
            name,
            options,
            () -> SluiceLauncher.start(jvm, options.repoRoot(), workDir, name, config));
    SluiceAccess access = new SluiceAccess(server.anonymous());
    String root = access.rootAuthorization();
    Endpoint asRoot = configured(server.anonymous().as(name, root), SLUICE_CATALOG);
    seed(asRoot, options);
    String granted = access.createGrantedPrincipal(root);
    access.grantNamespaces(root, SLUICE_CATALOG, Fixture.NAMESPACES);
    return new Sluice(access, server.process().pid(), root, asRoot, granted);
  }

  /** The stores the scale phase writes into, by the target that reads them: JDBC URLs. */
  Map<String, String> scaleDatabases() {
    return scaleDatabases;
  }

  /** The targets in the order each round runs them: the reference first, then Sluice's variants. */
  List<Target> inRunOrder(List<String> order) {
    List<Target> list = new ArrayList<>();
    for (String name : order) {
      Target t = targets.get(name);
      if (t == null) {
        throw new IllegalArgumentException("Unknown target " + name);
      }
      list.add(t);
    }
    return list;
  }

  /** The servers' memory and CPU over their whole life so far. */
  List<ServerStats> stats() {
    List<ServerStats> list = new ArrayList<>();
    servers.forEach(
        (name, server) -> {
          long pid = server.process().pid();
          list.add(
              new ServerStats(
                  name,
                  pid,
                  startupSeconds.get(name),
                  idleRssKib.get(name),
                  ProcStats.rssKib(pid),
                  ProcStats.peakRssKib(pid),
                  ProcStats.cpuSeconds(pid)));
        });
    return list;
  }

  /** Flight recordings by server name (written when the servers stop). */
  Map<String, Path> flightRecordings() {
    Map<String, Path> files = new LinkedHashMap<>();
    servers.forEach(
        (name, server) -> {
          if (server.flightRecording() != null) {
            files.put(name, server.flightRecording());
          }
        });
    return files;
  }

  @Override
  public void close() {
    servers.values().forEach(RunningServer::close);
    if (postgres != null) {
      postgres.close(); // after the servers: a database is dropped once nobody uses it
    }
  }

  private interface Launch {
    RunningServer start() throws IOException, InterruptedException;
  }

  private RunningServer timed(String name, BenchOptions options, Launch launch)
      throws IOException, InterruptedException {
    // Start-up is a reported target: measure it on a quiet machine, not while a test bed or the
    // previous server is still settling (up to --startup-settle seconds, 15 by default; other
    // processes under 0.1 cores for 1 s).
    new QuietWait(List.of(), options.startupSettleSeconds(), 0.1).await();
    long t0 = System.nanoTime();
    RunningServer server = launch.start();
    startupSeconds.put(name, (System.nanoTime() - t0) / 1e9);
    servers.put(name, server);
    Thread.sleep(2_000); // idle: what the server holds once start-up work has settled
    idleRssKib.put(name, ProcStats.rssKib(server.process().pid()));
    return server;
  }

  private static Endpoint configured(Endpoint endpoint, String warehouse) throws IOException {
    try (HttpClients clients = endpoint.clients("raw");
        HttpConnection http = clients.open()) {
      return CatalogCalls.withConfiguredPrefix(endpoint, http, warehouse);
    }
  }

  /** The fixture: namespaces, the read tables, and the large table grown to its snapshots. */
  private static void seed(Endpoint endpoint, BenchOptions options) throws IOException {
    long t0 = System.nanoTime();
    try (HttpClients clients = endpoint.clients("raw");
        HttpConnection http = clients.open()) {
      Fixture.seed(new CatalogCalls(endpoint, http), options.tables());
    }
    long snapshots = Fixture.growLarge(endpoint, options.largeSnapshots(), options.historyBatch());
    System.out.printf(
        "seeded %s: %d tables and %s.%s of %,d snapshots in %.1f s%n",
        endpoint.name(),
        options.tables(),
        Fixture.LARGE_NAMESPACE,
        Fixture.LARGE_TABLE,
        snapshots,
        (System.nanoTime() - t0) / 1e9);
  }
}
