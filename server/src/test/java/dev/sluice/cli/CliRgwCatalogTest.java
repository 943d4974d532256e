package dev.sluice.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.sluice.testing.CephRgw;
import dev.sluice.testing.NeedsTestBeds;
import dev.sluice.testing.RgwVendingBed;
import dev.sluice.testing.TestServer;
import java.util.HashMap;
import java.util.Map;
import org.apache.iceberg.Table;
import org.apache.iceberg.catalog.Namespace;
import org.apache.iceberg.catalog.TableIdentifier;
import org.apache.iceberg.io.FileIO;
import org.apache.iceberg.io.StorageCredential;
import org.apache.iceberg.io.SupportsStorageCredentials;
import org.apache.iceberg.rest.RESTCatalog;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The operator's path on the Ceph RGW bed with nothing but the CLI: {@code catalogs create} of an
 * S3 catalog from storage flags ({@code --region --role-arn --endpoint --credential-source ...}),
 * {@code catalogs verify} passing on the real store, namespaces and tables through the CLI, and a
 * table load through Iceberg's {@code RESTCatalog} that holds vended {@code s3.*} credentials (not
 * the bed's keys) which RGW accepts.
 */
@NeedsTestBeds
class CliRgwCatalogTest {
  private static RgwVendingBed bed;
  private static TestServer server;
  private static CephRgw rgw;

  @BeforeAll
  static void start() throws Exception {
    bed = RgwVendingBed.start("cli");
    server = bed.server();
    rgw = bed.rgw();
  }

  @AfterAll
  static void stop() throws Exception {
    bed.close();
  }

  @Test
  void aCatalogCreatedWithStorageFlagsVerifiesAndVends() throws Exception {
    Cli.Result created =
        Cli.ok(
            server,
            "catalogs",
            "create",
            "cli_lake",
            "--storage-type",
            "S3",
            "--default-base-location",
            bed.s3("wh"),
            "--allowed-location",
            bed.s3("wh"),
            "--region",
            rgw.region(),
            "--role-arn",
            rgw.roleArn(),
            "--endpoint",
            rgw.endpoint(),
            "--sts-endpoint",
            rgw.endpoint(),
            "--path-style-access",
            "--credential-source",
            "rgw",
            "--duration-seconds",
            "900",
            "--output",
            "json");
    JsonNode storage = created.json().get("storageConfigInfo");
    assertThat(storage.get("roleArn").asText()).isEqualTo(rgw.roleArn());
    assertThat(storage.get("credentialSource").asText()).isEqualTo("rgw");
    assertThat(created.out()).doesNotContain(rgw.secretKey());

    Cli.Result verified = Cli.ok(server, "catalogs", "verify", "cli_lake");
    assertThat(verified.out()).contains("catalog cli_lake (S3): PASS, ").contains(" 0 failed");

    Cli.ok(server, "namespaces", "create", "--catalog", "cli_lake", "sales");
    try (RESTCatalog client =
        bed.client("cli_lake", new String[] {TestServer.CLIENT_ID, TestServer.SECRET})) {
      client.createTable(TableIdentifier.of("sales", "orders"), RgwVendingBed.SCHEMA);
      assertThat(client.listTables(Namespace.of("sales")))
          .containsExactly(TableIdentifier.of("sales", "orders"));
      Table orders = client.loadTable(TableIdentifier.of("sales", "orders"));
      Map<String, String> vended = s3Properties(orders.io());
      assertThat(vended)
          .containsKeys("s3.access-key-id", "s3.secret-access-key", "s3.session-token");
      assertThat(vended.get("s3.access-key-id")).isNotEqualTo(rgw.accessKey());
      // RGW, not Sluice, accepts the vended credential for the table's own prefix.
      RgwVendingBed.writeDataFile(orders, "cli.parquet", "written with a vended credential");
    }
    assertThat(
            Cli.ok(server, "tables", "list", "--catalog", "cli_lake", "--namespace", "sales").out())
        .contains("orders");
    Cli.ok(server, "tables", "drop", "--catalog", "cli_lake", "--namespace", "sales", "orders");
  }

  /** The FileIO's s3.* properties and every storage credential's, as the client received them. */
  private static Map<String, String> s3Properties(FileIO io) {
    Map<String, String> all = new HashMap<>(io.properties());
    if (io instanceof SupportsStorageCredentials credentials) {
      for (StorageCredential credential : credentials.credentials()) {
        all.putAll(credential.config());
      }
    }
    all.keySet().removeIf(key -> !key.startsWith("s3."));
    return all;
  }
}
