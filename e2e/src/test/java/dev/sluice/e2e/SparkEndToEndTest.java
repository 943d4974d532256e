package dev.sluice.e2e;

import static dev.sluice.e2e.SparkSql.column;
import static dev.sluice.e2e.SparkSql.messages;
import static dev.sluice.e2e.SparkSql.row;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.math.BigDecimal;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;
import org.apache.spark.sql.AnalysisException;
import org.apache.spark.sql.SparkSession;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * Apache Spark 4.0 (local[2]) with Iceberg's Spark runtime, configured only with the REST catalog
 * properties a user would set, against a Sluice server process.
 *
 * <p>The {@code step*} methods form one table lifecycle and run in order; once one fails, the
 * following steps are skipped ({@link OrderedSteps}) rather than failing for the same cause.
 */
@ExtendWith(OrderedSteps.class)
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class SparkEndToEndTest {

  private static final String CATALOG = "sluice";
  private static final String NS = CATALOG + ".spark_e2e";
  private static final String TABLE = NS + ".orders";
  private static final String VIEW = NS + ".books";

  private static SluiceServerProcess server;
  private static SparkSession spark;

  private static long firstSnapshotId;
  private static long firstSnapshotMillis;
  private static long deleteSnapshotMillis;

  @BeforeAll
  static void start() {
    server = SluiceServerProcess.start("spark");
    Path sparkDir = SluiceServerProcess.repoRoot().resolve("e2e/target/spark");
    spark =
        SparkSql.session("sluice-e2e", sparkDir, CATALOG, server, SluiceServerProcess.WAREHOUSE);
  }

  @AfterAll
  static void stop() {
    try {
      SparkSql.stop(spark);
    } finally {
      if (server != null) {
        server.close();
      }
    }
  }

  @Test
  @Order(1)
  void step01CreateNamespace() {
    spark.sql("CREATE NAMESPACE " + NS + " WITH PROPERTIES ('purpose' = 'spark e2e')");

    assertThat(column(sql("SHOW NAMESPACES IN " + CATALOG), 0)).contains("spark_e2e");
    assertThat(sql("DESCRIBE NAMESPACE EXTENDED " + NS))
        .anySatisfy(r -> assertThat(r.toString()).contains("purpose").contains("spark e2e"));
  }

  @Test
  @Order(2)
  void step02CreatePartitionedTable() {
    spark.sql(
        "CREATE TABLE "
            + TABLE
            + " ("
            + "id BIGINT NOT NULL, category STRING, amount DECIMAL(10,2), ts TIMESTAMP) "
            + "USING iceberg PARTITIONED BY (category, days(ts))");

    assertThat(column(sql("SHOW TABLES IN " + NS), 1)).containsExactly("orders");
    assertThat(spark.table(TABLE).schema().fieldNames())
        .containsExactly("id", "category", "amount", "ts");
    List<String> described =
        sql("DESCRIBE TABLE EXTENDED " + TABLE).stream()
            .map(r -> r.get(0) + "=" + r.get(1))
            .toList();
    assertThat(described).contains("Part 0=category", "Part 1=days(ts)");
  }

  @Test
  @Order(3)
  void step03Insert() {
    spark.sql(
        "INSERT INTO "
            + TABLE
            + " VALUES "
            + "(1, 'books', 12.50, TIMESTAMP '2025-01-01 10:00:00'), "
            + "(2, 'games', 59.99, TIMESTAMP '2025-01-02 11:00:00'), "
            + "(3, 'books', 7.25, TIMESTAMP '2025-01-02 12:00:00')");

    List<List<Object>> snapshots =
        sql(
            "SELECT snapshot_id, unix_millis(committed_at), operation FROM "
                + TABLE
                + ".snapshots");
    assertThat(snapshots).hasSize(1);
    assertThat(snapshots.get(0).get(2)).isEqualTo("append");
    firstSnapshotId = (Long) snapshots.get(0).get(0);
    firstSnapshotMillis = (Long) snapshots.get(0).get(1);
  }

  @Test
  @Order(4)
  void step04Select() {
    assertThat(
            sql("SELECT id, category, amount, CAST(ts AS STRING) FROM " + TABLE + " ORDER BY id"))
        .containsExactly(
            row(1L, "books", dec("12.50"), "2025-01-01 10:00:00"),
            row(2L, "games", dec("59.99"), "2025-01-02 11:00:00"),
            row(3L, "books", dec("7.25"), "2025-01-02 12:00:00"));
    assertThat(sql("SELECT sum(amount) FROM " + TABLE + " WHERE category = 'books'"))
        .containsExactly(row(dec("19.75")));
    assertThat(
            sql(
                "SELECT partition.category, partition.ts_day, record_count FROM "
                    + TABLE
                    + ".partitions ORDER BY partition.category, partition.ts_day"))
        .extracting(r -> r.get(0) + "/" + r.get(1) + "/" + r.get(2))
        .containsExactly("books/2025-01-01/1", "books/2025-01-02/1", "games/2025-01-02/1");
  }

  @Test
  @Order(5)
  void step05DeleteRow() {
    spark.sql("DELETE FROM " + TABLE + " WHERE id = 2");

    assertThat(sql("SELECT id, category, amount FROM " + TABLE + " ORDER BY id"))
        .containsExactly(row(1L, "books", dec("12.50")), row(3L, "books", dec("7.25")));
    List<List<Object>> snapshots =
        sql(
            "SELECT snapshot_id, unix_millis(committed_at) FROM "
                + TABLE
                + ".snapshots ORDER BY committed_at");
    assertThat(snapshots).hasSize(2);
    deleteSnapshotMillis = (Long) snapshots.get(1).get(1);
  }

  @Test
  @Order(6)
  void step06AlterTableAddColumn() {
    spark.sql("ALTER TABLE " + TABLE + " ADD COLUMN note STRING");
    spark.sql(
        "INSERT INTO "
            + TABLE
            + " VALUES (4, 'games', 5.00, TIMESTAMP '2025-01-03 09:00:00', 'after alter')");

    assertThat(spark.table(TABLE).schema().fieldNames())
        .containsExactly("id", "category", "amount", "ts", "note");
    assertThat(sql("SELECT id, note FROM " + TABLE + " ORDER BY id"))
        .containsExactly(row(1L, null), row(3L, null), row(4L, "after alter"));
  }

  @Test
  @Order(7)
  void step07TimeTravel() {
    List<List<Object>> snapshots =
        sql("SELECT snapshot_id FROM " + TABLE + ".snapshots ORDER BY committed_at");
    assertThat(snapshots).hasSize(3);
    long first = (Long) snapshots.get(0).get(0);
    assertThat(first).isEqualTo(firstSnapshotId);

    // VERSION AS OF the first snapshot: all three inserted rows, and that snapshot's schema.
    assertThat(
            sql(
                "SELECT id, category, amount FROM "
                    + TABLE
                    + " VERSION AS OF "
                    + first
                    + " ORDER BY id"))
        .containsExactly(
            row(1L, "books", dec("12.50")),
            row(2L, "games", dec("59.99")),
            row(3L, "books", dec("7.25")));
    assertThat(
            spark.sql("SELECT * FROM " + TABLE + " VERSION AS OF " + first).schema().fieldNames())
        .containsExactly("id", "category", "amount", "ts");

    // TIMESTAMP AS OF the first snapshot's commit time, and of the delete's.
    assertThat(
            sql(
                "SELECT id FROM "
                    + TABLE
                    + " TIMESTAMP AS OF timestamp_millis("
                    + firstSnapshotMillis
                    + ") ORDER BY id"))
        .containsExactly(row(1L), row(2L), row(3L));
    assertThat(
            sql(
                "SELECT id FROM "
                    + TABLE
                    + " TIMESTAMP AS OF timestamp_millis("
                    + deleteSnapshotMillis
                    + ") ORDER BY id"))
        .containsExactly(row(1L), row(3L));
  }

  @Test
  @Order(8)
  void step08CreateViewAndSelect() {
    spark.sql(
        "CREATE VIEW "
            + VIEW
            + " AS SELECT id, amount FROM "
            + TABLE
            + " WHERE category = 'books'");

    assertThat(column(sql("SHOW VIEWS IN " + NS), 1)).containsExactly("books");
    assertThat(sql("SELECT * FROM " + VIEW + " ORDER BY id"))
        .containsExactly(row(1L, dec("12.50")), row(3L, dec("7.25")));
  }

  @Test
  @Order(9)
  void step09DropViewTableAndNamespace() {
    spark.sql("DROP VIEW " + VIEW);
    assertThat(sql("SHOW VIEWS IN " + NS)).isEmpty();

    spark.sql("DROP TABLE " + TABLE);
    assertThat(sql("SHOW TABLES IN " + NS)).isEmpty();
    assertThatThrownBy(() -> spark.table(TABLE))
        .isInstanceOf(AnalysisException.class)
        .hasMessageContaining("TABLE_OR_VIEW_NOT_FOUND");

    spark.sql("DROP NAMESPACE " + NS);
    assertThat(column(sql("SHOW NAMESPACES IN " + CATALOG), 0)).doesNotContain("spark_e2e");
  }

  @Test
  @Order(10)
  void wrongCredentialIsRejected() {
    String bad = "sluice_bad_credential";
    SparkSql.addCatalog(
        spark, bad, server, SluiceServerProcess.WAREHOUSE, server.clientId() + ":wrong-secret");

    assertThatThrownBy(() -> spark.sql("SHOW NAMESPACES IN " + bad).collectAsList())
        .satisfies(
            e ->
                assertThat(messages(e).toLowerCase(Locale.ROOT))
                    .containsAnyOf("401", "unauthorized", "not authorized", "invalid_client"));
  }

  // --- helpers -------------------------------------------------------------------------------

  private static List<List<Object>> sql(String query) {
    return SparkSql.rows(spark, query);
  }

  private static BigDecimal dec(String value) {
    return new BigDecimal(value);
  }
}
