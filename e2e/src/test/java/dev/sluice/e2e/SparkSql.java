package dev.sluice.e2e;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SparkSession;

/**
 * Small helpers shared by the Spark end-to-end tests: SQL results as plain lists, error chains as
 * text.
 */
final class SparkSql {
  private SparkSql() {}

  /**
   * A local Spark (2 threads, loopback only, no UI) with one Iceberg REST catalog configured as a
   * user would: type rest, uri, warehouse and client credential, nothing else. Anything about
   * storage (keys, endpoint, region) must come from the catalog.
   */
  static SparkSession session(
      String appName, Path sparkDir, String catalog, SluiceServerProcess server, String warehouse) {
    return session(appName, sparkDir, catalog, server, warehouse, Map.of());
  }

  /**
   * {@link #session(String, Path, String, SluiceServerProcess, String)} with more properties of the
   * catalog ({@code catalogOptions}, keys without the {@code spark.sql.catalog.<name>.} prefix).
   */
  static SparkSession session(
      String appName,
      Path sparkDir,
      String catalog,
      SluiceServerProcess server,
      String warehouse,
      Map<String, String> catalogOptions) {
    SparkSession.Builder builder = localBuilder(sparkDir, appName);
    catalogConf(catalog, server, warehouse, server.credential()).forEach(builder::config);
    catalogOptions.forEach((k, v) -> builder.config("spark.sql.catalog." + catalog + "." + k, v));
    return builder
        .config("spark.default.parallelism", "2")
        .config(
            "spark.sql.extensions",
            "org.apache.iceberg.spark.extensions.IcebergSparkSessionExtensions")
        .getOrCreate();
  }

  /**
   * Spark in local mode with two task slots, bound to loopback, no UI, UTC: what every Spark the
   * engine tests start shares (Spark 4.0 here, 4.1 in e2e-comet). A test adds its catalogs and
   * extensions, and for Comet the plugin.
   */
  static SparkSession.Builder localBuilder(Path sparkDir, String appName) {
    return SparkSession.builder()
        .master("local[2]")
        .appName(appName)
        .config("spark.driver.host", "127.0.0.1")
        .config("spark.driver.bindAddress", "127.0.0.1")
        .config("spark.ui.enabled", "false")
        .config("spark.sql.shuffle.partitions", "2")
        .config("spark.sql.session.timeZone", "UTC")
        .config("spark.sql.warehouse.dir", sparkDir.resolve("warehouse").toUri().toString());
  }

  /**
   * Adds the REST catalog {@code catalog} to a running session, configured as {@link #session}
   * configures its own but with {@code credential} ("clientId:clientSecret").
   */
  static void addCatalog(
      SparkSession spark,
      String catalog,
      SluiceServerProcess server,
      String warehouse,
      String credential) {
    addCatalog(spark, catalog, server, warehouse, credential, Map.of());
  }

  /**
   * {@link #addCatalog(SparkSession, String, SluiceServerProcess, String, String)} with more
   * properties of the catalog (keys without the {@code spark.sql.catalog.<name>.} prefix).
   */
  static void addCatalog(
      SparkSession spark,
      String catalog,
      SluiceServerProcess server,
      String warehouse,
      String credential,
      Map<String, String> catalogOptions) {
    catalogConf(catalog, server, warehouse, credential).forEach(spark.conf()::set);
    catalogOptions.forEach((k, v) -> spark.conf().set("spark.sql.catalog." + catalog + "." + k, v));
  }

  /**
   * The catalog's Spark settings exactly as docs/ENGINES.md gives them (snippet {@code
   * spark-catalog}, catalog {@code lake} renamed to {@code catalog}).
   */
  static Map<String, String> catalogConf(
      String catalog, SluiceServerProcess server, String warehouse, String credential) {
    return catalogConf(catalog, server.catalogUri(), warehouse, credential);
  }

  /**
   * Catalog {@code catalog}'s settings: snippet {@code spark-catalog} with {@code uri}, {@code
   * warehouse} and {@code credential} ("clientId:secret"), plus each of {@code moreSnippets} (which
   * take no placeholders), the docs' catalog {@code lake} renamed to {@code catalog}.
   */
  static Map<String, String> catalogConf(
      String catalog, String uri, String warehouse, String credential, String... moreSnippets) {
    Map<String, String> doc =
        new LinkedHashMap<>(
            DocSnippets.properties(
                "spark-catalog", DocSnippets.catalogValues(uri, warehouse, credential, Map.of())));
    for (String snippet : moreSnippets) {
      doc.putAll(DocSnippets.properties(snippet, Map.of()));
    }
    Map<String, String> conf = new LinkedHashMap<>();
    doc.forEach(
        (k, v) -> {
          if (!k.startsWith("spark.sql.catalog.lake")) {
            throw new IllegalStateException("not a setting of catalog lake: " + k);
          }
          conf.put(
              k.replaceFirst("^spark\\.sql\\.catalog\\.lake", "spark.sql.catalog." + catalog), v);
        });
    return conf;
  }

  /**
   * Stops a session made by {@link #session} (null: none was made) and forgets it as active and
   * default.
   */
  static void stop(SparkSession spark) {
    if (spark != null) {
      spark.stop();
      SparkSession.clearActiveSession();
      SparkSession.clearDefaultSession();
    }
  }

  static List<List<Object>> rows(SparkSession spark, String query) {
    List<List<Object>> rows = new ArrayList<>();
    for (Row r : spark.sql(query).collectAsList()) {
      List<Object> values = new ArrayList<>(r.size());
      for (int i = 0; i < r.size(); i++) {
        values.add(r.get(i));
      }
      rows.add(values);
    }
    return rows;
  }

  static List<Object> column(List<List<Object>> rows, int index) {
    return rows.stream().map(r -> r.get(index)).toList();
  }

  static List<Object> row(Object... values) {
    return Arrays.asList(values);
  }

  /** Every message in a cause chain, one per line. */
  static String messages(Throwable e) {
    return Stream.iterate(e, t -> t != null, Throwable::getCause)
        .map(t -> t.getClass().getName() + ": " + t.getMessage())
        .collect(Collectors.joining("\n"));
  }
}
