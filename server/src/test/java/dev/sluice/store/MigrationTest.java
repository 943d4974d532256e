package dev.sluice.store;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.sluice.location.StorageLocation;
import dev.sluice.testing.PostgresTestDatabase;
import java.nio.file.Files;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.Statement;
import java.util.List;
import org.flywaydb.core.Flyway;
import org.junit.jupiter.api.Test;

/**
 * A store created by version 1 (catalog core) upgrades in place: root administers, catalogs get
 * catalog_admin.
 */
class MigrationTest {
  /** The database the migrations run on: H2 here, PostgreSQL in {@link MigrationPostgresTest}. */
  String database() {
    return "h2";
  }

  private static String migratedTo(String database, String version) throws Exception {
    String url =
        database.equals("h2")
            ? "jdbc:h2:file:" + Files.createTempDirectory("sluice-mig").resolve("catalog")
            : PostgresTestDatabase.fresh();
    Flyway.configure()
        .dataSource(url, null, null)
        .locations("classpath:db/migration")
        .target(version)
        .load()
        .migrate();
    return url;
  }

  /**
   * Catalog {@code old} with namespace {@code ns} and table {@code ns.t}, as version 7 stored them.
   */
  private static void oldTable(Statement st, String metadataLocation) throws Exception {
    st.execute(
        "INSERT INTO catalogs (name, catalog_type, properties, storage_config, entity_version, created_at, updated_at)"
            + " VALUES ('old', 'INTERNAL', '{}', '{}', 1, 0, 0)");
    st.execute(
        "INSERT INTO namespaces (catalog_name, ns_path, parent_path, properties, created_at, updated_at)"
            + " VALUES ('old', 'ns', '', '{}', 0, 0)");
    st.execute(
        "INSERT INTO contents (catalog_name, ns_path, name, kind, metadata_location, version, created_at, updated_at)"
            + " VALUES ('old', 'ns', 't', 'TABLE', '"
            + metadataLocation
            + "', 0, 0, 0)");
  }

  @Test
  void version1DataUpgrades() throws Exception {
    String database = database();
    String url = migratedTo(database, "1");
    try (Connection conn = DriverManager.getConnection(url);
        Statement st = conn.createStatement()) {
      st.execute(
          "INSERT INTO principals (name, client_id, secret_hash, properties, created_at, updated_at)"
              + " VALUES ('root', 'cid', 'hash', '{}', 0, 0)");
      st.execute(
          "INSERT INTO catalogs (name, catalog_type, properties, storage_config, entity_version, created_at, updated_at)"
              + " VALUES ('old', 'INTERNAL', '{}', '{}', 1, 0, 0)");
    }
    try (JdbcStore store = JdbcStore.open(new DatabaseConfig(url, null, null, 2, 5000))) {
      assertThat(store.access().principalRolesOf("root")).containsExactly("service_admin");
      assertThat(
              store
                  .access()
                  .principalRolesWith("old", "catalog_admin", PageRequest.first(10))
                  .items())
          .extracting(RoleRecord::name)
          .containsExactly("service_admin");
      assertThat(store.access().grantsOf("old", "catalog_admin", PageRequest.first(10)).items())
          .extracting(GrantRecord::privilege)
          .containsExactlyInAnyOrder("CATALOG_MANAGE_ACCESS", "CATALOG_MANAGE_CONTENT");
      assertThat(store.access().getPrincipal("root").orElseThrow().credentialVersion())
          .isEqualTo(1);
    }
  }

  /**
   * Claims recorded as written before version 8 (s3a://) are keyed as s3:// after it, so an s3://
   * spelling of the same place overlaps them.
   */
  @Test
  void s3aClaimsAreKeyedAsS3() throws Exception {
    String database = database();
    String url = migratedTo(database, "7");
    try (Connection conn = DriverManager.getConnection(url);
        Statement st = conn.createStatement()) {
      oldTable(st, "s3a://b/wh/ns/t/metadata/m.json");
      for (String prefix :
          List.of("s3a://b/", "s3a://b/wh/", "s3a://b/wh/ns/", "s3a://b/wh/ns/t/")) {
        st.execute(
            "INSERT INTO location_claims (prefix_key, location_key, catalog_name, ns_path, name)"
                + " VALUES ('"
                + prefix
                + "', 's3a://b/wh/ns/t/', 'old', 'ns', 't')");
      }
      // A namespace with nothing in it: only its own claim stands for its folder.
      st.execute(
          "INSERT INTO namespaces (catalog_name, ns_path, parent_path, properties, created_at, updated_at)"
              + " VALUES ('old', 'empty', '', '{}', 0, 0)");
      for (String prefix : List.of("s3a://b/", "s3a://b/wh/", "s3a://b/wh/empty/")) {
        st.execute(
            "INSERT INTO namespace_claims (prefix_key, location_key, catalog_name, ns_path)"
                + " VALUES ('"
                + prefix
                + "', 's3a://b/wh/empty/', 'old', 'empty')");
      }
    }
    try (JdbcStore store = JdbcStore.open(new DatabaseConfig(url, null, null, 2, 5000))) {
      assertThat(store.claimedLocations("old", NamespacePath.of("ns"), "t"))
          .containsExactly("s3://b/wh/ns/t/");
      store.createNamespace("old", NamespacePath.of("other"), java.util.Map.of());
      for (String spelling : List.of("s3://b/wh/ns/t/data", "s3a://b/wh/ns/t", "s3://b/wh")) {
        assertThat(
                store.findLocationConflict(
                    "old",
                    NamespacePath.of("other"),
                    "x",
                    List.of(new LocationClaim(StorageLocation.parse(spelling).ancestorKeys()))))
            .as(spelling)
            .isPresent();
      }
      assertThatThrownBy(
              () ->
                  store.createNamespace(
                      "old",
                      NamespacePath.of("twin"),
                      java.util.Map.of(),
                      new LocationClaim(StorageLocation.parse("s3://b/wh/empty").ancestorKeys())))
          .isInstanceOf(LocationConflict.class);
    }
  }

  /**
   * Azure claims recorded before version 8 in a Blob spelling or an upper-case host are keyed by
   * the DFS spelling in lower case after it, so any spelling of the same place overlaps them.
   */
  @Test
  void azureClaimsAreKeyedByTheDfsEndpoint() throws Exception {
    String database = database();
    String url = migratedTo(database, "7");
    String blob = "wasbs://c@Acct.blob.core.windows.net/";
    try (Connection conn = DriverManager.getConnection(url);
        Statement st = conn.createStatement()) {
      oldTable(st, blob + "wh/ns/t/metadata/m.json");
      for (String prefix : List.of("", "wh/", "wh/ns/", "wh/ns/t/")) {
        st.execute(
            "INSERT INTO location_claims (prefix_key, location_key, catalog_name, ns_path, name)"
                + " VALUES ('"
                + blob
                + prefix
                + "', '"
                + blob
                + "wh/ns/t/', 'old', 'ns', 't')");
      }
    }
    try (JdbcStore store = JdbcStore.open(new DatabaseConfig(url, null, null, 2, 5000))) {
      assertThat(store.claimedLocations("old", NamespacePath.of("ns"), "t"))
          .containsExactly("abfss://c@acct.dfs.core.windows.net/wh/ns/t/");
      store.createNamespace("old", NamespacePath.of("other"), java.util.Map.of());
      for (String spelling :
          List.of(
              "abfss://c@acct.dfs.core.windows.net/wh/ns/t/data",
              "wasbs://c@acct.blob.core.windows.net/wh/ns/t",
              "abfss://c@ACCT.dfs.core.windows.net/wh")) {
        assertThat(
                store.findLocationConflict(
                    "old",
                    NamespacePath.of("other"),
                    "x",
                    List.of(new LocationClaim(StorageLocation.parse(spelling).ancestorKeys()))))
            .as(spelling)
            .isPresent();
      }
    }
  }

  /**
   * Principals from before version 9 get an id of their own ("legacy-" and their name), their
   * Idempotency-Key records name that identity, and a principal created after it gets a random id,
   * so deleting and creating a legacy name again makes a new identity.
   */
  @Test
  void principalsGetIdsThatARecreatedNameDoesNotShare() throws Exception {
    String database = database();
    String url = migratedTo(database, "8");
    try (Connection conn = DriverManager.getConnection(url);
        Statement st = conn.createStatement()) {
      st.execute(
          "INSERT INTO principals (name, client_id, secret_hash, properties, created_at, updated_at)"
              + " VALUES ('gus', 'cid-gus', 'hash', '{}', 0, 0)");
      st.execute(
          "INSERT INTO idempotency_keys (idem_key, principal_name, catalog_name, operation,"
              + " request_hash, attempt, status, response_body, created_at, expires_at)"
              + " VALUES ('k', 'gus', 'c', 'createTable', 'h', 'a', 200, '{}', 0, 9999999999999)");
    }
    try (JdbcStore store = JdbcStore.open(new DatabaseConfig(url, null, null, 2, 5000))) {
      assertThat(store.access().getPrincipal("gus").orElseThrow().id()).isEqualTo("legacy-gus");
      IdempotencyRecord stored = store.idempotencyKeys().find("k").orElseThrow();
      assertThat(stored.principal()).isEqualTo("gus");
      assertThat(stored.principalIdentity()).isEqualTo("principal:legacy-gus");
      assertThat(store.access().deletePrincipal("gus")).isTrue();
      store
          .access()
          .createPrincipal(
              new PrincipalRecord("gus", "cid-gus-2", "hash", java.util.Map.of(), 1), List.of());
      assertThat(store.access().getPrincipal("gus").orElseThrow().id())
          .startsWith("p-")
          .isNotEqualTo("legacy-gus");
    }
  }

  /**
   * Catalogs from before version 15 are internal ones without a connection configuration, and an
   * internal table from then keeps its folder against a federated catalog's table.
   */
  @Test
  void catalogsFromBeforeFederationHaveNoConnectionConfig() throws Exception {
    String url = migratedTo(database(), "14");
    try (Connection conn = DriverManager.getConnection(url);
        Statement st = conn.createStatement()) {
      oldTable(st, "s3://b/wh/ns/t/metadata/m.json");
      for (String prefix : List.of("s3://b/", "s3://b/wh/", "s3://b/wh/ns/", "s3://b/wh/ns/t/")) {
        st.execute(
            "INSERT INTO location_claims (prefix_key, location_key, catalog_name, ns_path, name)"
                + " VALUES ('"
                + prefix
                + "', 's3://b/wh/ns/t/', 'old', 'ns', 't')");
      }
    }
    try (JdbcStore store = JdbcStore.open(new DatabaseConfig(url, null, null, 2, 5000))) {
      assertThat(store.getCatalog("old").orElseThrow().connectionConfig()).isNull();
      store.createCatalog(
          new CatalogRecord("fed", "EXTERNAL", java.util.Map.of(), "{}", "{}", 1, 0, 0),
          "service_admin");
      assertThat(
              store.claimRemoteLocations(
                  "fed",
                  NamespacePath.of("db"),
                  "t",
                  List.of(new LocationClaim(StorageLocation.parse("s3://b/wh").ancestorKeys()))))
          .map(LocationConflict::claimed)
          .contains("s3://b/wh/ns/t/");
    }
  }
}
