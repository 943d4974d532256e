package dev.sluice.e2e;

import static dev.sluice.e2e.SparkSql.column;
import static dev.sluice.e2e.SparkSql.row;
import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.apache.spark.sql.SparkSession;

/**
 * The "orders" table that the Spark storage tests ({@link SparkS3VendingTest}, {@link
 * SparkS3RemoteSigningTest}, {@link SparkR2VendingTest}) take through the same lifecycle on a test
 * bucket: the steps they share, with the same SQL and the same assertions, and the table's place in
 * the bucket. What differs between them (the catalog, what its REST responses carry, the R2
 * gateway's counters, who may do what) stays in each test, around these calls.
 */
final class SparkOrdersTable {
  private final SparkSession spark;
  private final RgwTestBucket bucket;
  private final String catalog;
  private final String nsName;
  private final String tableName;
  private final String ns;
  private final String table;

  /** The table {@code catalog.nsName.tableName}, its catalog's base location {@code /wh}. */
  SparkOrdersTable(
      SparkSession spark, RgwTestBucket bucket, String catalog, String nsName, String tableName) {
    this.spark = spark;
    this.bucket = bucket;
    this.catalog = catalog;
    this.nsName = nsName;
    this.tableName = tableName;
    this.ns = catalog + "." + nsName;
    this.table = ns + "." + tableName;
  }

  void createNamespace() {
    spark.sql("CREATE NAMESPACE " + ns);

    assertThat(column(sql("SHOW NAMESPACES IN " + catalog), 0)).contains(nsName);
  }

  /** A plain CREATE TABLE (not CTAS) of {@code (id, name, qty)}, then listed in its namespace. */
  void createTable() {
    spark.sql(
        "CREATE TABLE " + table + " (id BIGINT NOT NULL, name STRING, qty INT) USING iceberg");

    assertThat(column(sql("SHOW TABLES IN " + ns), 1)).containsExactly(tableName);
  }

  /**
   * The new table lies under the catalog's {@code /wh} in the test bucket, and its first metadata
   * file (the server's) is there.
   */
  void assertCreatedInTheBucket() {
    assertThat(tableLocation()).startsWith("s3://" + bucket.name() + "/wh/");
    assertThat(bucket.keys(tablePrefix() + "metadata/"))
        .anyMatch(k -> k.endsWith(".metadata.json"));
  }

  void insert() {
    spark.sql(
        "INSERT INTO " + table + " VALUES (1, 'apple', 10), (2, 'pear', 20), (3, 'plum', 30)");

    assertThat(sql("SELECT operation FROM " + table + ".snapshots")).containsExactly(row("append"));
  }

  void select() {
    assertThat(sql("SELECT id, name, qty FROM " + table + " ORDER BY id"))
        .containsExactly(row(1L, "apple", 10), row(2L, "pear", 20), row(3L, "plum", 30));
  }

  void deleteRow() {
    spark.sql("DELETE FROM " + table + " WHERE id = 2");

    assertThat(sql("SELECT count(*) FROM " + table + ".snapshots")).containsExactly(row(2L));
  }

  void selectAfterDelete() {
    assertThat(sql("SELECT id, name, qty FROM " + table + " ORDER BY id"))
        .containsExactly(row(1L, "apple", 10), row(3L, "plum", 30));
  }

  /**
   * After create, insert and delete: the table's data and metadata files are objects in the bucket,
   * among them every data file of the current snapshot. Returns the keys under the table's prefix.
   */
  List<String> assertFilesAreInTheBucket() {
    String prefix = tablePrefix();
    List<String> keys = bucket.keys(prefix);
    String listing = String.join("\n", keys);

    List<String> dataFiles =
        keys.stream()
            .filter(k -> k.startsWith(prefix + "data/") && k.endsWith(".parquet"))
            .toList();
    assertThat(dataFiles)
        .as("Parquet files under s3://%s/%sdata/ in:%n%s", bucket.name(), prefix, listing)
        .isNotEmpty();
    // Every data file the current snapshot references is one of those objects.
    List<String> live =
        sql("SELECT file_path FROM " + table + ".files").stream()
            .map(r -> (String) r.get(0))
            .toList();
    assertThat(live).isNotEmpty();
    assertThat(live).allSatisfy(p -> assertThat(keys).contains(bucket.keyOf(p)));

    List<String> metadata = keys.stream().filter(k -> k.startsWith(prefix + "metadata/")).toList();
    assertThat(metadata)
        .as("metadata objects under s3://%s/%smetadata/ in:%n%s", bucket.name(), prefix, listing)
        .anyMatch(k -> k.endsWith(".metadata.json"))
        .anyMatch(k -> k.matches(".*/snap-.*\\.avro"))
        .anyMatch(k -> k.endsWith("-m0.avro"));
    assertThat(metadata.stream().filter(k -> k.endsWith(".metadata.json")).count())
        .as("create + append + delete")
        .isGreaterThanOrEqualTo(3);
    return keys;
  }

  String tableLocation() {
    return tableLocation(table);
  }

  /** The {@code Location} that DESCRIBE TABLE EXTENDED shows for {@code table}. */
  String tableLocation(String table) {
    return sql("DESCRIBE TABLE EXTENDED " + table).stream()
        .filter(r -> "Location".equals(r.get(0)))
        .map(r -> ((String) r.get(1)).trim())
        .findFirst()
        .orElseThrow(
            () -> new AssertionError("DESCRIBE TABLE EXTENDED " + table + " has no Location"));
  }

  /** The table location's key prefix inside the test bucket, ending with '/'. */
  String tablePrefix() {
    return tablePrefix(table);
  }

  /** {@code table}'s location as a key prefix inside the test bucket, ending with '/'. */
  String tablePrefix(String table) {
    String key = bucket.keyOf(tableLocation(table));
    return key.endsWith("/") ? key : key + "/";
  }

  List<List<Object>> sql(String query) {
    return SparkSql.rows(spark, query);
  }
}
