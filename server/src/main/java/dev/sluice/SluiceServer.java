package dev.sluice;

import static java.util.Objects.requireNonNull;

import dev.sluice.audit.AuditLog;
import dev.sluice.audit.AuditRetention;
import dev.sluice.audit.AuditStream;
import dev.sluice.auth.Authenticator;
import dev.sluice.auth.ExternalJwtVerifier;
import dev.sluice.auth.Sealer;
import dev.sluice.auth.TokenEndpoint;
import dev.sluice.auth.TokenService;
import dev.sluice.auth.TokenThrottle;
import dev.sluice.auth.VerifiedSecrets;
import dev.sluice.authz.Authorizer;
import dev.sluice.authz.CatalogVisibility;
import dev.sluice.authz.ObjectVisibility;
import dev.sluice.authz.PrivilegeExplanation;
import dev.sluice.catalog.CatalogRegistry;
import dev.sluice.config.ServerConfig;
import dev.sluice.federation.FederationSettings;
import dev.sluice.federation.RemoteCatalogs;
import dev.sluice.http.AccessRoutes;
import dev.sluice.http.CatalogRoutes;
import dev.sluice.http.ConsoleRoutes;
import dev.sluice.http.HealthRoutes;
import dev.sluice.http.HttpServer;
import dev.sluice.http.IcebergRoutes;
import dev.sluice.http.ManagementRoutes;
import dev.sluice.http.NamespaceIdentityRoutes;
import dev.sluice.http.OAuthRoutes;
import dev.sluice.http.PrivilegeRoutes;
import dev.sluice.http.ReadRestrictionRoutes;
import dev.sluice.http.SigningKeyRoutes;
import dev.sluice.http.Transport;
import dev.sluice.management.AccessAdmin;
import dev.sluice.management.CallerActions;
import dev.sluice.management.CatalogAdmin;
import dev.sluice.management.CatalogVerification;
import dev.sluice.management.ManagementAccess;
import dev.sluice.management.NamespaceIdentityAdmin;
import dev.sluice.management.ReadRestrictionAdmin;
import dev.sluice.operations.CatalogAccess;
import dev.sluice.operations.CatalogListings;
import dev.sluice.operations.ConditionalLoad;
import dev.sluice.operations.NamespaceOperations;
import dev.sluice.operations.PlanAccess;
import dev.sluice.operations.ReadRestrictions;
import dev.sluice.operations.ReadableLocations;
import dev.sluice.operations.ScanPlans;
import dev.sluice.operations.TableCredentials;
import dev.sluice.operations.TableLoads;
import dev.sluice.operations.TableMutations;
import dev.sluice.operations.TableSigning;
import dev.sluice.operations.ViewOperations;
import dev.sluice.store.JdbcStore;
import dev.sluice.store.Store;
import dev.sluice.tls.ServerTls;
import dev.sluice.tracing.Tracing;
import dev.sluice.vending.StorageBackends;
import dev.sluice.vending.VendingService;
import io.micrometer.core.instrument.FunctionCounter;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Files;
import java.time.Clock;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.Consumer;
import java.util.function.UnaryOperator;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/** Wires the store, auth, catalog and HTTP layers into one running server. */
public final class SluiceServer implements AutoCloseable {

  /** The stream {@code audit.stream} names; its CloudEvents source names this server. */
  private static AuditStream auditStream(ServerConfig config) {
    return switch (config.audit().stream()) {
      case "log" -> AuditStream.log();
      case "file" -> {
        String host = System.getenv("HOSTNAME");
        yield AuditStream.file(
            config.audit().file(),
            "sluice://"
                + (host == null || host.isBlank() ? "localhost" : host)
                + ":"
                + config.server().port());
      }
      default -> AuditStream.NONE;
    };
  }

  private static final Logger LOG = LoggerFactory.getLogger(SluiceServer.class);

  private final Store store;
  private final TokenService tokens;
  private final HttpServer http;
  private final List<AutoCloseable> closeables;
  private final AtomicBoolean stopping;

  private SluiceServer(
      Store store,
      TokenService tokens,
      HttpServer http,
      List<AutoCloseable> closeables,
      AtomicBoolean stopping) {
    this.store = store;
    this.tokens = tokens;
    this.http = http;
    this.closeables = closeables;
    this.stopping = stopping;
  }

  /** {@link #start(ServerConfig, StorageBackends, String, PrintStream)} with Sluice's backends. */
  public static SluiceServer start(
      ServerConfig config, String bootstrapCredentials, PrintStream console) throws Exception {
    return start(config, StandardBackends.create(), bootstrapCredentials, console);
  }

  /** Opens the store, bootstraps on first start, and starts listening. */
  public static SluiceServer start(
      ServerConfig config,
      StorageBackends backends,
      String bootstrapCredentials,
      PrintStream console)
      throws Exception {
    return start(config, backends, bootstrapCredentials, console, UnaryOperator.identity());
  }

  /**
   * As {@link #start(ServerConfig, StorageBackends, String, PrintStream)}, with the catalogs
   * reading and writing their tables through {@code catalogStore} of the store: the seam where the
   * durability tests put a deliberately broken store (a decorator in the test sources), so that
   * they can show they catch one. The shipped server passes the store as it is.
   */
  public static SluiceServer start(
      ServerConfig config,
      StorageBackends backends,
      String bootstrapCredentials,
      PrintStream console,
      UnaryOperator<Store> catalogStore)
      throws Exception {
    return start(
        config,
        backends,
        bootstrapCredentials,
        console,
        catalogStore,
        Tracing.of(config.tracing(), BuildInfo.version()));
  }

  /**
   * As above, with spans made by {@code tracing} (which the server closes): the seam where a test
   * passes a tracer that exports to memory.
   */
  public static SluiceServer start(
      ServerConfig config,
      StorageBackends backends,
      String bootstrapCredentials,
      PrintStream console,
      UnaryOperator<Store> catalogStore,
      Tracing tracing)
      throws Exception {
    requireNonNull(catalogStore, "catalogStore");
    requireNonNull(tracing, "tracing");
    requireNonNull(config, "config");
    requireNonNull(backends, "backends");
    long started = System.nanoTime();
    try {
      Files.createDirectories(config.warehouseDir());
    } catch (IOException e) {
      throw new IllegalStateException(
          "Cannot create the data directory " + config.dataDir() + ": " + e.getMessage(), e);
    }
    // Read first: on a first start the root secret's slow hash runs while the schema is created.
    RootCredentials root = RootCredentials.of(bootstrapCredentials, config.database().settings());
    JdbcStore store = JdbcStore.open(config.database().settings());
    if (tracing.enabled()) {
      store.bindTracing(tracing.tracer());
    }
    List<AutoCloseable> closeables = new ArrayList<>();
    closeables.add(tracing); // after the HTTP server: every request's span has ended
    AtomicBoolean stopping = new AtomicBoolean();
    try {
      Bootstrap.run(
          store,
          backends,
          root,
          config.bootstrap().quickstartCatalog(),
          config.warehouseDir(),
          config.dataDir(),
          console);
      TokenService tokens =
          new TokenService(store, config.auth().tokenLifetime(), Clock.systemUTC());
      tokens.start();
      Sealer pageTokens = new Sealer(tokens);
      store.ready();
      ExternalJwtVerifier oidc =
          config.auth().oidc() == null
              ? null
              : new ExternalJwtVerifier(config.auth().oidc().settings(), Clock.systemUTC());
      Authenticator authenticator = new Authenticator(store, tokens, oidc);
      ServerMetrics serverMetrics = new ServerMetrics();
      PrometheusMeterRegistry metrics = serverMetrics.registry();
      store.bindMetrics(metrics);
      AuditLog audit =
          new AuditLog(
              store.access(), metrics, AuditLog.CAPACITY, AuditLog.FLUSH_WAIT, auditStream(config));
      closeables.add(audit);
      if (config.audit().retention() != null) {
        closeables.add(
            new AuditRetention(
                    store.access(), config.audit().retention(), Clock.systemUTC(), metrics)
                .start());
      }
      Authorizer authz = new Authorizer(store.access(), store.delegations(), audit);
      VerifiedSecrets verifiedSecrets =
          new VerifiedSecrets(config.auth().verifiedSecretTtl(), metrics);
      Runnable accessChanged =
          () -> {
            authz.invalidate();
            authenticator.invalidate();
            verifiedSecrets.invalidateAll();
          };
      HttpServer.Routes routes = new HttpServer.Routes();
      VendingService vending =
          new VendingService(
              backends,
              config.storage().credentialSources(),
              config.storage().vendingCache().ttlCap(),
              config.storage().vendingCache().maxEntries(),
              metrics,
              config.storage().timeouts().provider());
      closeables.add(vending);
      vending.registerMeters();
      if (tracing.enabled()) {
        vending.bindTracing(tracing.tracer());
      }
      new HealthRoutes(store, metrics, stopping::get).register(routes);
      new ConsoleRoutes().register(routes);
      TokenEndpoint tokenEndpoint =
          new TokenEndpoint(
              store,
              authenticator,
              new TokenThrottle(config.auth().tokenThrottle().limits()),
              verifiedSecrets,
              audit,
              metrics,
              config.auth().delegation().unsignedSubjects(),
              Clock.systemUTC());
      new OAuthRoutes(tokenEndpoint).register(routes);
      FunctionCounter.builder("sluice.auth.signing.key.reads", tokens, TokenService::keyReads)
          .description(
              "Reads of the token signing keys from the store (start, refresh, unknown key id)")
          .register(metrics);
      CatalogRegistry catalogs =
          new CatalogRegistry(
              catalogStore.apply(store),
              backends,
              config.storage().credentialSources(),
              config.storage().timeouts().catalogIo());
      closeables.add(catalogs);
      if (tracing.enabled()) {
        catalogs.bindTracing(tracing.tracer());
      }
      FederationSettings federation =
          new FederationSettings(
              config.federation().secrets(),
              config.federation().remoteTimeouts().connect(),
              config.federation().remoteTimeouts().request(),
              config.federation().maxListedNames());
      catalogs.bindFederation(new RemoteCatalogs(federation));
      Clock clock = Clock.systemUTC();
      TableCredentials credentials =
          new TableCredentials(
              authz, vending, tokens, clock, config.storage().stagedGrantLifetime(), metrics);
      CatalogVisibility visibility = new CatalogVisibility(authz);
      ObjectVisibility objects = new ObjectVisibility(authz);
      CatalogAccess access = new CatalogAccess(catalogs, authz, visibility, objects);
      // A caller's read restriction on a table (scan planning and loads of restricted callers).
      ReadRestrictions readRestrictions = new ReadRestrictions(store, catalogs);
      ScanPlans scanPlans =
          new ScanPlans(
              access,
              readRestrictions,
              new PlanAccess(credentials, vending, authz),
              config.server().scanPlanning());
      closeables.add(scanPlans);
      new IcebergRoutes(
              catalogs,
              authz,
              new IcebergRoutes.Services(
                  access,
                  new CatalogListings(authz),
                  new ReadableLocations(authz, catalogs.store()),
                  new NamespaceOperations(authz, access),
                  new TableLoads(
                      authz, access, credentials, new ConditionalLoad(clock), readRestrictions),
                  new TableMutations(authz, credentials, readRestrictions),
                  new TableSigning(authz, vending, tokens, scanPlans, readRestrictions),
                  scanPlans,
                  new ViewOperations(authz, access)),
              tokens,
              new IcebergRoutes.Tuning(
                  config.server().metadataCache().maxBytes(),
                  config.server().metadataCache().idleLifetime(),
                  config.server().idempotencyKeyLifetime(),
                  config.server().idempotencyReplayWait(),
                  clock))
          .register(routes);
      Consumer<String> catalogsChanged =
          catalog -> {
            catalogs.changed(catalog);
            vending.retire(catalog);
            accessChanged.run();
          };
      CatalogAdmin catalogAdmin =
          new CatalogAdmin(
              store,
              backends,
              config.storage().credentialSources(),
              config.storage().vendingMinDurationSeconds(),
              federation::definesSecret);
      AccessAdmin accessAdmin = new AccessAdmin(store, accessChanged);
      ManagementAccess managementAccess = new ManagementAccess(authz, catalogAdmin, accessAdmin);
      new ManagementRoutes(
              managementAccess,
              new ManagementRoutes.Handlers(
                  new CatalogRoutes(
                      catalogAdmin,
                      authz,
                      managementAccess,
                      catalogsChanged,
                      new CatalogVerification(
                          catalogs,
                          vending,
                          backends,
                          config.storage().vendingMinDurationSeconds()),
                      pageTokens,
                      backends),
                  new AccessRoutes(
                      accessAdmin, managementAccess, store.access(), audit, pageTokens),
                  new PrivilegeRoutes(
                      managementAccess,
                      new PrivilegeExplanation(store.access()),
                      new CallerActions(authz, catalogAdmin)),
                  new SigningKeyRoutes(tokens),
                  new NamespaceIdentityRoutes(
                      new NamespaceIdentityAdmin(
                          store,
                          backends,
                          config.storage().credentialSources(),
                          authz,
                          // Resolved again at once here (its vendors retired); other replicas
                          // within the catalogs' one-second bound.
                          catalog -> {
                            catalogs.invalidate();
                            vending.retire(catalog);
                          })),
                  new ReadRestrictionRoutes(
                      new ReadRestrictionAdmin(
                          store, catalogs, authz, readRestrictions::invalidate))))
          .register(routes);
      ServerTls tls =
          config.server().tls() == null ? null : ServerTls.start(config.server().tls().settings());
      if (tls != null) {
        closeables.add(tls);
      }
      HttpServer http =
          new HttpServer(
              config.server().host(),
              config.server().port(),
              routes.build(),
              authenticator,
              config.server().maxRequestBytes(),
              new Transport(tls, config.server().trustedProxies(), config.server().metricsPort()),
              config.server().limits(),
              backends,
              audit,
              tracing,
              metrics);
      closeables.add(serverMetrics); // last: what closes before it may still record
      http.start();
      String base =
          (tls == null ? "http" : "https") + "://" + config.server().host() + ":" + http.port();
      if (http.metricsPort() >= 0) {
        LOG.info(
            "metrics at http://{}:{}{} (only there)",
            config.server().host(),
            http.metricsPort(),
            HealthRoutes.METRICS);
      }
      LOG.info(
          "Sluice {} listening on {}{} (store {}; ready in {} ms); console at {}/ui/",
          BuildInfo.version(),
          base,
          tls == null ? "" : tls.clientAuth() ? ", management API needs client certificates" : "",
          config.database().url().replaceAll("password=[^;&]*", "password=***"),
          (System.nanoTime() - started) / 1_000_000,
          base);
      return new SluiceServer(store, tokens, http, closeables, stopping);
    } catch (Exception e) {
      for (AutoCloseable c : closeables) {
        c.close();
      }
      store.close();
      throw e;
    }
  }

  public Store store() {
    return store;
  }

  public TokenService tokens() {
    return tokens;
  }

  public int port() {
    return http.port();
  }

  /** The port that alone serves {@code /metrics} ({@code server.metricsPort}), or -1 if none. */
  public int metricsPort() {
    return http.metricsPort();
  }

  /** Every route this server answers, in dispatch order. */
  public List<HttpServer.RouteInfo> routes() {
    return http.routes();
  }

  public void join() throws InterruptedException {
    http.join();
  }

  @Override
  public void close() throws Exception {
    if (stopping.getAndSet(true)) {
      return;
    }
    LOG.info("Sluice stopping: finishing the requests in flight");
    long started = System.nanoTime();
    try {
      http.close();
      for (AutoCloseable c : closeables) {
        c.close();
      }
    } finally {
      store.close();
      LOG.info("Sluice stopped in {} ms", (System.nanoTime() - started) / 1_000_000);
    }
  }
}
