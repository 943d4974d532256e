package dev.sluice.e2e;

import dev.sluice.client.comet.SluiceCometCredentialProvider;
import java.nio.file.Path;
import org.apache.spark.sql.SparkSession;

/**
 * The Comet tests' Spark: 4.1 in local mode (two task slots) with Comet's native scans. Hadoop S3A
 * (Spark's file listing) runs anonymously; Comet's Parquet reads get their credentials from the
 * Sluice bridge with a reader's credential. Iceberg REST catalogs of the Sluice server are added
 * with {@link #restCatalog}.
 */
final class CometSpark {
  static final String BRIDGE = SluiceCometCredentialProvider.class.getName();

  private CometSpark() {}

  static SparkSession.Builder builder(
      Path sparkDir,
      CometTestBed bed,
      SluiceServerProcess server,
      String warehouse,
      String readerCredential) {
    return SparkSession.builder()
        .master("local[2]")
        .appName("sluice-e2e-comet")
        .config("spark.driver.host", "127.0.0.1")
        .config("spark.driver.bindAddress", "127.0.0.1")
        .config("spark.ui.enabled", "false")
        .config("spark.sql.shuffle.partitions", "2")
        .config("spark.sql.session.timeZone", "UTC")
        .config("spark.sql.warehouse.dir", sparkDir.resolve("warehouse").toUri().toString())
        // Comet, with its native scans
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
        .config("spark.hadoop.fs.s3a.endpoint", bed.env("SLUICE_TEST_RGW_ENDPOINT"))
        .config("spark.hadoop.fs.s3a.endpoint.region", bed.env("SLUICE_TEST_RGW_REGION"))
        .config("spark.hadoop.fs.s3a.path.style.access", "true")
        .config("spark.hadoop.fs.s3a.connection.ssl.enabled", "false")
        .config(
            "spark.hadoop.fs.s3a.aws.credentials.provider",
            "org.apache.hadoop.fs.s3a.AnonymousAWSCredentialsProvider")
        .config("spark.hadoop.fs.s3a.comet.credential.provider.class", BRIDGE)
        .config("spark.hadoop.fs.s3a.sluice.uri", server.catalogUri())
        .config("spark.hadoop.fs.s3a.sluice.warehouse", warehouse)
        .config("spark.hadoop.fs.s3a.sluice.credential", readerCredential);
  }

  /** Spark catalog {@code name}: the server's {@code warehouse}, with {@code credential}. */
  static SparkSession.Builder restCatalog(
      SparkSession.Builder b,
      String name,
      SluiceServerProcess server,
      String warehouse,
      String credential) {
    String c = "spark.sql.catalog." + name;
    return b.config(c, "org.apache.iceberg.spark.SparkCatalog")
        .config(c + ".type", "rest")
        .config(c + ".uri", server.catalogUri())
        .config(c + ".warehouse", warehouse)
        .config(c + ".credential", credential);
  }
}
