package dev.sluice.e2e;

import java.nio.file.Path;
import java.util.Map;
import org.apache.spark.sql.SparkSession;

/**
 * The Comet tests' Spark: 4.1 in local mode (two task slots) with Comet's native scans. Hadoop S3A
 * (Spark's file listing) runs anonymously; Comet's Parquet reads get their credentials from the
 * Sluice bridge with a reader's credential, set up as docs/ENGINES.md says (snippet {@code
 * comet-parquet}). Iceberg REST catalogs of the Sluice server are added with {@link #restCatalog},
 * the bridge for their native reads with {@link #cometIceberg}.
 */
final class CometSpark {
  private CometSpark() {}

  static SparkSession.Builder builder(
      Path sparkDir,
      CometTestBed bed,
      SluiceServerProcess server,
      String warehouse,
      String readerCredential) {
    SparkSession.Builder b = SparkSql.localBuilder(sparkDir, "sluice-e2e-comet");
    b // Comet, with its native scans
        .config("spark.plugins", "org.apache.spark.CometPlugin")
        .config("spark.comet.enabled", "true")
        .config("spark.comet.exec.enabled", "true")
        .config("spark.comet.scan.icebergNative.enabled", "true")
        .config("spark.comet.write.iceberg.enabled", "false")
        .config(
            "spark.shuffle.manager",
            "org.apache.spark.sql.comet.execution.shuffle.CometShuffleManager")
        .config("spark.memory.offHeap.enabled", "true")
        .config("spark.memory.offHeap.size", "1g")
        // Parquet path: S3A lists anonymously; Comet's reads get credentials from the bridge.
        .config(
            "spark.hadoop.fs.s3a.aws.credentials.provider",
            "org.apache.hadoop.fs.s3a.AnonymousAWSCredentialsProvider");
    DocSnippets.properties(
            "comet-parquet",
            DocSnippets.catalogValues(
                server.catalogUri(),
                warehouse,
                readerCredential,
                Map.of(
                    "region", bed.env("SLUICE_TEST_RGW_REGION"),
                    "s3-endpoint", bed.env("SLUICE_TEST_RGW_ENDPOINT"))))
        .forEach(b::config);
    return b;
  }

  /**
   * Spark catalog {@code name}: the server's {@code warehouse}, with {@code credential}, configured
   * as docs/ENGINES.md's {@code spark-catalog} snippet says.
   */
  static SparkSession.Builder restCatalog(
      SparkSession.Builder b,
      String name,
      SluiceServerProcess server,
      String warehouse,
      String credential) {
    SparkSql.catalogConf(name, server, warehouse, credential).forEach(b::config);
    return b;
  }

  /**
   * Comet's native Iceberg reads of catalog {@code name} credentialed by the bridge: the {@code
   * comet-iceberg} snippet of docs/ENGINES.md, its catalog {@code lake} renamed to {@code name}.
   */
  static SparkSession.Builder cometIceberg(SparkSession.Builder b, String name, CometTestBed bed) {
    DocSnippets.properties(
            "comet-iceberg",
            Map.of(
                "region", bed.env("SLUICE_TEST_RGW_REGION"),
                "s3-endpoint", bed.env("SLUICE_TEST_RGW_ENDPOINT")))
        .forEach(
            (k, v) ->
                b.config(
                    k.replaceFirst(
                        "^spark\\.sql\\.catalog\\.lake\\.", "spark.sql.catalog." + name + "."),
                    v));
    return b;
  }
}
