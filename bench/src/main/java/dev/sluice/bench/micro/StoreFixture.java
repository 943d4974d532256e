package dev.sluice.bench.micro;

import dev.sluice.management.AccessAdmin;
import dev.sluice.store.CatalogRecord;
import dev.sluice.store.DatabaseConfig;
import dev.sluice.store.GrantRecord;
import dev.sluice.store.JdbcStore;
import dev.sluice.store.NamespacePath;
import dev.sluice.store.SecurableRef;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;

/**
 * A real store: {@link JdbcStore} on an H2 file in a temp directory (the embedded default, as in
 * the server's H2StoreTest), with one catalog. {@link #grantAnalyst()} adds what the load
 * generator's {@code sluice-rbac} target uses: a non-root principal whose only access is namespace
 * grants reached through principal role → catalog role.
 */
final class StoreFixture implements AutoCloseable {
  static final String CATALOG = "bench";
  static final String PRINCIPAL = "analyst";
  static final NamespacePath NAMESPACE = NamespacePath.of("bench");
  static final SecurableRef TABLE = SecurableRef.table(NAMESPACE, "t0");
  private static final String PRINCIPAL_ROLE = "analysts";
  private static final String CATALOG_ROLE = "bench_rw";
  private static final List<String> NAMESPACE_PRIVILEGES =
      List.of("TABLE_LIST", "TABLE_CREATE", "TABLE_READ_DATA", "TABLE_WRITE_DATA");

  final JdbcStore store;
  private final Path dir;

  private StoreFixture(Path dir, JdbcStore store) {
    this.dir = dir;
    this.store = store;
  }

  static StoreFixture open() {
    try {
      Path dir = Files.createTempDirectory("sluice-jmh-h2");
      String url = "jdbc:h2:file:" + dir.resolve("catalog") + ";DB_CLOSE_ON_EXIT=FALSE";
      JdbcStore store = JdbcStore.open(new DatabaseConfig(url, null, null, 10, 5000));
      Path warehouse = dir.resolve("warehouse");
      String storage =
          "{\"storageType\":\"FILE\",\"allowedLocations\":[\"" + warehouse.toUri() + "\"]}";
      store.createCatalog(
          new CatalogRecord(
              CATALOG,
              "INTERNAL",
              Map.of("default-base-location", warehouse.toUri().toString()),
              storage,
              1,
              0,
              0),
          "service_admin");
      return new StoreFixture(dir, store);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** The analyst principal and its grants, made through AccessAdmin as the management API does. */
  void grantAnalyst() {
    AccessAdmin admin = new AccessAdmin(store, () -> {});
    admin.createPrincipal(PRINCIPAL, Map.of(), List.of());
    admin.createPrincipalRole(PRINCIPAL_ROLE, Map.of());
    admin.assignPrincipalRole(PRINCIPAL, PRINCIPAL_ROLE);
    admin.createCatalogRole(CATALOG, CATALOG_ROLE, Map.of());
    admin.assignCatalogRole(CATALOG, CATALOG_ROLE, PRINCIPAL_ROLE);
    for (String privilege : NAMESPACE_PRIVILEGES) {
      admin.grant(
          new GrantRecord(CATALOG, CATALOG_ROLE, SecurableRef.namespace(NAMESPACE), privilege));
    }
  }

  @Override
  public void close() {
    store.close();
    try (Stream<Path> files = Files.walk(dir)) {
      files.sorted(Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
