package dev.sluice;

import static java.util.Objects.requireNonNull;

import dev.sluice.auth.Authenticator;
import dev.sluice.auth.TokenService;
import dev.sluice.catalog.CatalogRegistry;
import dev.sluice.config.ServerConfig;
import dev.sluice.http.HealthRoutes;
import dev.sluice.http.HttpServer;
import dev.sluice.http.IcebergRoutes;
import dev.sluice.http.ManagementRoutes;
import dev.sluice.http.OAuthRoutes;
import dev.sluice.io.LocalFileIO;
import dev.sluice.management.CatalogAdmin;
import dev.sluice.store.JdbcStore;
import dev.sluice.store.Store;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Files;
import java.time.Clock;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/** Wires the store, auth, catalog and HTTP layers into one running server. */
public final class SluiceServer implements AutoCloseable {
  private static final Logger LOG = LoggerFactory.getLogger(SluiceServer.class);

  private final Store store;
  private final TokenService tokens;
  private final HttpServer http;

  private SluiceServer(Store store, TokenService tokens, HttpServer http) {
    this.store = store;
    this.tokens = tokens;
    this.http = http;
  }

  /** Opens the store, bootstraps on first start, and starts listening. */
  public static SluiceServer start(ServerConfig config, String bootstrapCredentials, PrintStream console) throws Exception {
    requireNonNull(config, "config");
    long started = System.nanoTime();
    try {
      Files.createDirectories(config.warehouseDir());
    } catch (IOException e) {
      throw new IllegalStateException("Cannot create the data directory " + config.dataDir() + ": " + e.getMessage(), e);
    }
    Store store = JdbcStore.open(config.database());
    try {
      Bootstrap.run(store, bootstrapCredentials, config.quickstartCatalog(), config.warehouseDir(), console);
      TokenService tokens = new TokenService(store, config.tokenLifetime(), Clock.systemUTC());
      tokens.start();
      Authenticator authenticator = new Authenticator(store, tokens);
      HttpServer.Routes routes = new HttpServer.Routes();
      new HealthRoutes(store).register(routes);
      new OAuthRoutes(authenticator).register(routes);
      new IcebergRoutes(new CatalogRegistry(store, new LocalFileIO())).register(routes);
      new ManagementRoutes(new CatalogAdmin(store)).register(routes);
      HttpServer http = new HttpServer(config.host(), config.port(), routes.build(), authenticator, config.maxRequestBytes());
      http.start();
      LOG.info(
          "Sluice listening on http://{}:{} (store {}; ready in {} ms)",
          config.host(),
          http.port(),
          config.database().url().replaceAll("password=[^;&]*", "password=***"),
          (System.nanoTime() - started) / 1_000_000);
      return new SluiceServer(store, tokens, http);
    } catch (Exception e) {
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

  public void join() throws InterruptedException {
    http.join();
  }

  @Override
  public void close() throws Exception {
    try {
      http.close();
    } finally {
      store.close();
    }
  }
}
