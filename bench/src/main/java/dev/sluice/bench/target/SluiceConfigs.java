package dev.sluice.bench.target;

import java.nio.file.Path;

/**
 * The YAML configs the benchmark starts Sluice with ({@code ${DATA_DIR}} is the instance's data
 * directory).
 */
public final class SluiceConfigs {
  private SluiceConfigs() {}

  /**
   * The embedded default (H2 file under the data directory), with {@code AUTO_SERVER=TRUE} so that
   * the scale phase can add rows to the running server's store from this process (H2 lets one
   * process open a file; the first keeps its embedded connections, others go through a socket it
   * opens). Plus, when {@code s3} is given, a static credential source for RGW.
   */
  public static String embedded(S3TestBed s3) {
    return "database:\n  url: \"" + h2Url("${DATA_DIR}") + "\"\n" + credentialSource(s3);
  }

  /** The URL another process uses to reach the embedded database under {@code dataDir}. */
  public static String embeddedUrl(Path dataDir) {
    return h2Url(dataDir.toAbsolutePath().toString());
  }

  /** {@code jdbcUrl} (PostgreSQL) with the driver sending a JDBC batch as multi-row inserts. */
  public static String batchInserts(String jdbcUrl) {
    return jdbcUrl + (jdbcUrl.contains("?") ? "&" : "?") + "reWriteBatchedInserts=true";
  }

  /** PostgreSQL at {@code jdbcUrl}; plus, when {@code s3} is given, the same RGW source. */
  public static String postgres(String jdbcUrl, S3TestBed s3) {
    return "database:\n  url: \"" + jdbcUrl.replace("\"", "") + "\"\n" + credentialSource(s3);
  }

  /** A static credential source for RGW's keys ({@code s3} null: none, an empty string). */
  private static String credentialSource(S3TestBed s3) {
    if (s3 == null) {
      return "";
    }
    return "storage:\n  credentialSources:\n    "
        + S3TestBed.CREDENTIAL_SOURCE
        + ":\n      type: static\n"
        + "      accessKeyId: \""
        + s3.accessKey()
        + "\"\n      secretAccessKey: \""
        + s3.secretKey()
        + "\"\n";
  }

  private static String h2Url(String dataDir) {
    // The server's default URL (ServerConfig) with AUTO_SERVER=TRUE instead of
    // DB_CLOSE_ON_EXIT=FALSE,
    // which H2 refuses together (that setting only matters for a graceful drain at shutdown).
    return "jdbc:h2:file:" + dataDir + "/catalog;AUTO_SERVER=TRUE";
  }
}
