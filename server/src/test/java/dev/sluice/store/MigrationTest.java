package dev.sluice.store;

import static org.assertj.core.api.Assertions.assertThat;

import dev.sluice.testing.PostgresTestDatabase;
import java.nio.file.Files;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.Statement;
import org.flywaydb.core.Flyway;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * A store created by version 1 (catalog core) upgrades in place: root administers, catalogs get
 * catalog_admin.
 */
class MigrationTest {
  @ParameterizedTest
  @ValueSource(strings = {"h2", "postgresql"})
  void version1DataUpgrades(String database) throws Exception {
    String url =
        database.equals("h2")
            ? "jdbc:h2:file:" + Files.createTempDirectory("sluice-mig").resolve("catalog")
            : PostgresTestDatabase.fresh();
    Flyway.configure()
        .dataSource(url, null, null)
        .locations("classpath:db/migration")
        .target("1")
        .load()
        .migrate();
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
}
