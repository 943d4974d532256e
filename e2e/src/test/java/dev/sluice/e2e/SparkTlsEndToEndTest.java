package dev.sluice.e2e;

import static dev.sluice.e2e.SparkSql.row;
import static org.assertj.core.api.Assertions.assertThat;

import dev.sluice.testing.CaFileTlsConfigurer;
import dev.sluice.testing.TestPki;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import org.apache.spark.sql.SparkSession;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Spark 4.0 with Iceberg's REST catalog over {@code https://} against a Sluice process serving TLS
 * from PEM files made at test time (a keytool CA and a server certificate). The driver trusts that
 * CA through Iceberg's {@code rest.client.tls.configurer-impl} (the JVM-wide {@code
 * javax.net.ssl.trustStore} would work too, but the default SSLContext is fixed at its first use in
 * this test JVM, which other e2e tests share).
 */
class SparkTlsEndToEndTest {
  private static final String CATALOG = "sluice_tls";
  private static final String TABLE = CATALOG + ".tls_e2e.orders";

  private static SluiceServerProcess server;
  private static SparkSession spark;

  @BeforeAll
  static void start() throws Exception {
    Path pkiDir = Files.createTempDirectory("sluice-e2e-tls");
    TestPki pki = TestPki.create(pkiDir, "Sluice E2E CA");
    TestPki.Issued certificate = pki.server("localhost");
    String yaml = certificate.serverTlsYaml();
    server = SluiceServerProcess.start("spark-tls", yaml, Map.of(), pki.clientContext());
    assertThat(server.catalogUri()).startsWith("https://");
    Path sparkDir = SluiceServerProcess.repoRoot().resolve("e2e/target/spark-tls");
    spark =
        SparkSql.session(
            "sluice-e2e-tls",
            sparkDir,
            CATALOG,
            server,
            SluiceServerProcess.WAREHOUSE,
            Map.of(
                "rest.client.tls.configurer-impl",
                CaFileTlsConfigurer.class.getName(),
                CaFileTlsConfigurer.CA_FILE,
                pki.caPem().toString()));
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
  void createInsertSelectOverHttps() {
    spark.sql("CREATE NAMESPACE " + CATALOG + ".tls_e2e");
    spark.sql("CREATE TABLE " + TABLE + " (id BIGINT, item STRING) USING iceberg");
    spark.sql("INSERT INTO " + TABLE + " VALUES (1, 'tea'), (2, 'rice')");
    spark.sql("INSERT INTO " + TABLE + " VALUES (3, 'salt')");

    assertThat(SparkSql.rows(spark, "SELECT id, item FROM " + TABLE + " ORDER BY id"))
        .containsExactly(row(1L, "tea"), row(2L, "rice"), row(3L, "salt"));
    assertThat(SparkSql.rows(spark, "SELECT count(*) FROM " + TABLE + ".snapshots"))
        .containsExactly(row(2L));
    // The server saw these requests over TLS only: its one listener is the TLS one.
    assertThat(server.getPublic("/healthz").statusCode()).isEqualTo(200);
  }
}
