package dev.sluice.store;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.Statement;
import org.flywaydb.core.api.FlywayException;
import org.h2.jdbcx.JdbcDataSource;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A start skips Flyway only when the history records exactly the bundled migrations, with the
 * checksums Flyway computes; anything else is still Flyway's to apply or to report.
 */
class SchemaHistoryCheckTest {
  private static final ClassLoader LOADER = SchemaHistoryCheckTest.class.getClassLoader();

  @TempDir Path dir;
  private JdbcDataSource dataSource;

  @BeforeEach
  void database() {
    dataSource = new JdbcDataSource();
    dataSource.setURL("jdbc:h2:file:" + dir.resolve("catalog"));
  }

  private void sql(String statement) throws Exception {
    try (Connection c = dataSource.getConnection();
        Statement s = c.createStatement()) {
      s.execute(statement);
    }
  }

  private String latest() {
    return SchemaHistoryCheck.bundled(LOADER).stream()
        .map(SchemaHistoryCheck.Migration::version)
        .max((a, b) -> Integer.compare(Integer.parseInt(a), Integer.parseInt(b)))
        .orElseThrow();
  }

  @Test
  void aCurrentSchemaIsRecognisedWithFlywaysChecksums() {
    assertThat(SchemaHistoryCheck.current(dataSource, LOADER)).as("a new database").isEmpty();
    assertThat(dir.resolve("catalog.trace.db")).as("no error in H2's trace file").doesNotExist();

    SchemaMigrations.Applied first = new SchemaMigrations(dataSource).migrate();
    assertThat(first.count()).isEqualTo(SchemaHistoryCheck.bundled(LOADER).size());

    assertThat(SchemaHistoryCheck.current(dataSource, LOADER)).contains(latest());
    assertThat(new SchemaMigrations(dataSource).migrate())
        .isEqualTo(new SchemaMigrations.Applied(0, latest()));
  }

  @Test
  void anEditedMigrationIsStillFlywaysToReport() throws Exception {
    new SchemaMigrations(dataSource).migrate();
    sql(
        "UPDATE \"flyway_schema_history\" SET \"checksum\" = \"checksum\" + 1 WHERE \"version\" = '3'");

    assertThat(SchemaHistoryCheck.current(dataSource, LOADER)).isEmpty();
    assertThatThrownBy(() -> new SchemaMigrations(dataSource).migrate())
        .isInstanceOf(FlywayException.class)
        .hasMessageContaining("checksum");
  }

  @Test
  void aPendingFailedOrUnknownMigrationIsFlywaysToHandle() throws Exception {
    new SchemaMigrations(dataSource).migrate();
    String last = latest();

    sql(
        "UPDATE \"flyway_schema_history\" SET \"success\" = FALSE WHERE \"version\" = '"
            + last
            + "'");
    assertThat(SchemaHistoryCheck.current(dataSource, LOADER)).as("failed").isEmpty();

    sql("DELETE FROM \"flyway_schema_history\" WHERE \"version\" = '" + last + "'");
    assertThat(SchemaHistoryCheck.current(dataSource, LOADER)).as("pending").isEmpty();
  }

  @Test
  void aNewerSchemaIsFlywaysToJudge() throws Exception {
    new SchemaMigrations(dataSource).migrate();
    sql(
        "INSERT INTO \"flyway_schema_history\" (\"installed_rank\", \"version\", \"description\","
            + " \"type\", \"script\", \"checksum\", \"installed_by\", \"execution_time\","
            + " \"success\") VALUES (999, '999', 'later', 'SQL', 'V999__later.sql', 1, 'sa', 0,"
            + " TRUE)");

    assertThat(SchemaHistoryCheck.current(dataSource, LOADER)).isEmpty();
  }

  @Test
  void theChecksumIgnoresLineEndingsAndAByteOrderMark() throws Exception {
    Path unix = Files.writeString(dir.resolve("a.sql"), "CREATE TABLE t (id INT);\nSELECT 1;\n");
    Path windows =
        Files.writeString(dir.resolve("b.sql"), "\uFEFFCREATE TABLE t (id INT);\r\nSELECT 1;");
    try (var a = Files.newInputStream(unix);
        var b = Files.newInputStream(windows)) {
      assertThat(SchemaHistoryCheck.checksum(a)).isEqualTo(SchemaHistoryCheck.checksum(b));
    }
  }
}
