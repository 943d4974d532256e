package dev.sluice;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.sluice.testing.Admin;
import dev.sluice.testing.CaFileTlsConfigurer;
import dev.sluice.testing.NeedsTestBeds;
import dev.sluice.testing.RgwVendingBed;
import dev.sluice.testing.TestPki;
import dev.sluice.testing.TestServer;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.apache.iceberg.DataFile;
import org.apache.iceberg.Table;
import org.apache.iceberg.catalog.TableIdentifier;
import org.apache.iceberg.rest.RESTCatalog;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Vending over TLS: a Sluice on https (a test CA's certificate) with an S3 catalog on the Ceph RGW
 * bed. Iceberg's {@link RESTCatalog}, trusting only that CA, creates a table, writes a file into
 * the bucket and commits it with the credentials vended over https, then reads it back.
 */
@NeedsTestBeds
class TlsVendingTest {
  @TempDir static Path dir;
  private static TestPki pki;
  private static RgwVendingBed bed;
  private static TestServer server;
  private static String[] writer;
  private static final String CATALOG = "tls_lake";

  @BeforeAll
  static void start() throws Exception {
    pki = TestPki.create(dir.resolve("pki"), "Sluice Test CA");
    TestPki.Issued certificate = pki.server("localhost");
    bed = RgwVendingBed.start("tlsvend", certificate.serverTlsYaml(), pki.clientContext());
    server = bed.server();
    HttpResponse<String> created =
        server.send(
            "POST", "/api/management/v1/catalogs", bed.catalogJson(CATALOG, bed.rgw().endpoint()));
    assertThat(created.statusCode()).as(created.body()).isEqualTo(201);
    bed.createNamespace(CATALOG, "sales");
    Admin admin = bed.admin();
    writer = admin.principal("tls_writer", "tls_writers");
    admin.catalogRole(CATALOG, "tls_write", "tls_writers");
    for (String privilege : List.of("TABLE_CREATE", "TABLE_WRITE_DATA")) {
      admin.grant(
          CATALOG, "tls_write", Admin.grantJson("namespace", List.of("sales"), null, privilege));
    }
  }

  @AfterAll
  static void stop() throws Exception {
    if (bed != null) {
      bed.close();
    }
  }

  @Test
  void createCommitLoadAndVendOverHttps() throws Exception {
    assertThat(server.catalogUri()).startsWith("https://");
    Map<String, String> tls =
        Map.of(
            "rest.client.tls.configurer-impl",
            CaFileTlsConfigurer.class.getName(),
            CaFileTlsConfigurer.CA_FILE,
            pki.caPem().toString());
    TableIdentifier id = TableIdentifier.of("sales", "orders");
    DataFile file;
    try (RESTCatalog client = bed.client(CATALOG, writer, tls)) {
      Table table = client.createTable(id, RgwVendingBed.SCHEMA);
      // Written to RGW by S3FileIO with the credentials the https answer carried.
      file = RgwVendingBed.writeDataFile(table, "a.parquet", "over-tls");
      table.newAppend().appendFile(file).commit();
    }
    try (RESTCatalog again = bed.client(CATALOG, writer, tls)) {
      Table loaded = again.loadTable(id);
      assertThat(loaded.currentSnapshot().addedDataFiles(loaded.io())).hasSize(1);
      try (var in = loaded.io().newInputFile(file.location()).newStream()) {
        assertThat(new String(in.readAllBytes(), StandardCharsets.UTF_8)).isEqualTo("over-tls");
      }
    }
    HttpResponse<String> load =
        server.sendAs(
            server.token(writer[0], writer[1]),
            "GET",
            "/api/catalog/v1/" + CATALOG + "/namespaces/sales/tables/orders",
            null,
            Map.of(RgwVendingBed.DELEGATION, "vended-credentials"));
    assertThat(load.statusCode()).as(load.body()).isEqualTo(200);
    JsonNode answer = TestServer.json(load.body());
    JsonNode credential = answer.path("storage-credentials").get(0);
    assertThat(credential.path("prefix").asText())
        .isEqualTo(answer.path("metadata").path("location").asText());
    assertThat(credential.path("config").path("s3.access-key-id").asText())
        .isNotEmpty()
        .isNotEqualTo(bed.rgw().accessKey());
  }
}
