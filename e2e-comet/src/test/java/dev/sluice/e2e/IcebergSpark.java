package dev.sluice.e2e;

import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;
import org.apache.spark.sql.SparkSession;

/**
 * Spark 4.1 in local mode (two task slots) with Iceberg's own runtime and nothing else: no Comet,
 * no S3A, no storage settings. Its REST catalogs are configured from docs/ENGINES.md's snippets, as
 * a user following the page would.
 */
final class IcebergSpark {
  private IcebergSpark() {}

  static SparkSession.Builder builder(Path sparkDir, String appName) {
    return SparkSession.builder()
        .master("local[2]")
        .appName(appName)
        .config("spark.driver.host", "127.0.0.1")
        .config("spark.driver.bindAddress", "127.0.0.1")
        .config("spark.ui.enabled", "false")
        .config("spark.sql.shuffle.partitions", "2")
        .config("spark.sql.session.timeZone", "UTC")
        .config("spark.sql.warehouse.dir", sparkDir.resolve("warehouse").toUri().toString())
        .config(
            "spark.sql.extensions",
            "org.apache.iceberg.spark.extensions.IcebergSparkSessionExtensions");
  }

  /**
   * Catalog {@code name}'s settings: snippet {@code spark-catalog} with {@code uri}, {@code
   * warehouse} and {@code credential} ("clientId:secret"), plus each of {@code moreSnippets} (which
   * take no placeholders), the docs' catalog {@code lake} renamed to {@code name}.
   */
  static Map<String, String> catalog(
      String name, String uri, String warehouse, String credential, String... moreSnippets) {
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
          conf.put(k.replaceFirst("^spark\\.sql\\.catalog\\.lake", "spark.sql.catalog." + name), v);
        });
    return conf;
  }
}
