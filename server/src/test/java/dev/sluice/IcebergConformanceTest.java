package dev.sluice;

import static org.assertj.core.api.Assertions.assertThat;

import dev.sluice.catalog.CatalogSettings;
import dev.sluice.testing.CatalogCleanup;
import dev.sluice.testing.TestServer;
import java.io.IOException;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.apache.iceberg.HasTableOperations;
import org.apache.iceberg.Table;
import org.apache.iceberg.catalog.CatalogTests;
import org.apache.iceberg.rest.RESTCatalog;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.io.TempDir;

/**
 * Iceberg's own catalog conformance suite, run through the real {@link RESTCatalog} client (OAuth2
 * client credentials) against a live Sluice server. Each test gets a fresh catalog.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class IcebergConformanceTest extends CatalogTests<RESTCatalog> {
  // Client-side table defaults and overrides, which CatalogTests expects its default catalog to
  // carry.
  private static final Map<String, String> TABLE_DEFAULTS =
      Map.of(
          "table-default.default-key1", "catalog-default-key1",
          "table-default.default-key2", "catalog-default-key2",
          "table-default.override-key3", "catalog-default-key3",
          "table-override.override-key3", "catalog-override-key3",
          "table-override.override-key4", "catalog-override-key4");
  private TestServer server;
  private String catalogName;
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
    Path warehouse = server.dataDir().resolve("conformance-" + System.nanoTime());
    // CatalogTests places custom table locations under file:/tmp, outside their namespaces: a
    // user with such tables allows that area and unstructured locations, as here.
    catalogName =
        server.createCatalog(
            "ct",
            List.of(warehouse.toUri().toString(), "file:/tmp"),
            warehouse,
            Map.of(CatalogSettings.ALLOW_UNSTRUCTURED_LOCATIONS, "true"));
    catalog = initCatalog("sluice", TABLE_DEFAULTS);
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
  protected RESTCatalog initCatalog(String name, Map<String, String> additionalProperties) {
    RESTCatalog client = new RESTCatalog();
    Map<String, String> props = new HashMap<>(server.clientProperties(catalogName));
    props.putAll(additionalProperties);
    client.initialize(name, props);
    return client;
  }

  // Sluice keeps namespaces as real entities with parents: nested namespaces are supported.
  @Override
  protected boolean supportsNestedNamespaces() {
    return true;
  }

  // A table's namespace must exist first (as in Polaris); tables never create namespaces
  // implicitly.
  @Override
  protected boolean requiresNamespaceCreate() {
    return true;
  }

  // Commits go through CatalogHandlers, which re-applies updates on a fresh base after a lost race.
  @Override
  protected boolean supportsServerSideRetry() {
    return true;
  }

  /**
   * Iceberg 1.11 expects a load to fail once the current metadata file is gone. Sluice differs on
   * purpose: a metadata file is immutable, so the copy this server wrote or read stays valid and is
   * served from its metadata cache ({@code catalog/MetadataCache}); the file's loss shows up where
   * it is read, not at the catalog.
   */
  @Override
  @Test
  public void testLoadTableWithMissingMetadataFile(@TempDir Path tempDir) throws IOException {
    RESTCatalog catalog = catalog();
    catalog.createNamespace(TBL.namespace());
    Table created = catalog.buildTable(TBL, SCHEMA).create();
    String metadataFile =
        ((HasTableOperations) catalog.loadTable(TBL)).operations().current().metadataFileLocation();
    Path file = Paths.get(URI.create(metadataFile));
    Path moved = tempDir.resolve("moved.json");
    Files.move(file, moved);
    try {
      Table loaded = catalog.loadTable(TBL);
      assertThat(((HasTableOperations) loaded).operations().current().metadataFileLocation())
          .isEqualTo(metadataFile);
      assertThat(loaded.schema().asStruct()).isEqualTo(created.schema().asStruct());
    } finally {
      Files.move(moved, file);
    }
  }
}
