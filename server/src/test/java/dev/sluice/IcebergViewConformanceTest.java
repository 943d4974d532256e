package dev.sluice;

import dev.sluice.catalog.CatalogSettings;
import dev.sluice.testing.CatalogCleanup;
import dev.sluice.testing.TestServer;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.apache.iceberg.catalog.Catalog;
import org.apache.iceberg.rest.RESTCatalog;
import org.apache.iceberg.view.ViewCatalogTests;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.TestInstance;

/**
 * Iceberg's own view conformance suite, through the real {@link RESTCatalog}, against live Sluice.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class IcebergViewConformanceTest extends ViewCatalogTests<RESTCatalog> {
  // Client-side view defaults and overrides, which ViewCatalogTests expects its catalog to carry.
  private static final Map<String, String> VIEW_DEFAULTS =
      Map.of(
          "view-default.key1", "catalog-default-key1",
          "view-default.key2", "catalog-default-key2",
          "view-default.key3", "catalog-default-key3",
          "view-override.key3", "catalog-override-key3",
          "view-override.key4", "catalog-override-key4");
  private TestServer server;
  private RESTCatalog catalog;

  @BeforeAll
  void startServer() throws Exception {
    server = startSluice();
  }

  /** The store under test: an H2 file here; the PostgreSQL subclass overrides this. */
  protected TestServer startSluice() throws Exception {
    return TestServer.startH2();
  }

  @AfterAll
  void stopServer() throws Exception {
    server.close();
  }

  @BeforeEach
  void newCatalog() throws Exception {
    Path warehouse = server.dataDir().resolve("views-" + System.nanoTime());
    // ViewCatalogTests places custom view and table locations under file:/tmp, outside their
    // namespaces: a user with such views allows that area and unstructured locations, as here.
    String name =
        server.createCatalog(
            "vt",
            List.of(warehouse.toUri().toString(), "file:/tmp"),
            warehouse,
            Map.of(CatalogSettings.ALLOW_UNSTRUCTURED_LOCATIONS, "true"));
    catalog = new RESTCatalog();
    Map<String, String> props = new HashMap<>(server.clientProperties(name));
    props.putAll(VIEW_DEFAULTS);
    catalog.initialize("sluice", props);
  }

  @AfterEach
  void closeCatalog() throws Exception {
    CatalogCleanup.dropAll(catalog);
    catalog.close();
  }

  @Override
  protected RESTCatalog catalog() {
    return catalog;
  }

  @Override
  protected Catalog tableCatalog() {
    return catalog;
  }

  // A view's namespace must exist first (as in Polaris); nothing creates namespaces implicitly.
  @Override
  protected boolean requiresNamespaceCreate() {
    return true;
  }

  // View commits go through CatalogHandlers, which re-applies updates on a fresh base after a lost
  // race.
  @Override
  protected boolean supportsServerSideRetry() {
    return true;
  }
}
