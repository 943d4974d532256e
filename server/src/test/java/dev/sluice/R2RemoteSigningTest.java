package dev.sluice;

import static dev.sluice.testing.RgwVendingBed.SCHEMA;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.sluice.testing.Admin;
import dev.sluice.testing.CredentialSourcesYaml;
import dev.sluice.testing.NeedsTestBeds;
import dev.sluice.testing.R2Gateway;
import dev.sluice.testing.R2GatewayBed;
import dev.sluice.testing.RgwVendingBed;
import dev.sluice.testing.SignerClientReset;
import dev.sluice.testing.TestServer;
import dev.sluice.testing.WriterAndReader;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import org.apache.iceberg.DataFile;
import org.apache.iceberg.Table;
import org.apache.iceberg.catalog.Namespace;
import org.apache.iceberg.catalog.TableIdentifier;
import org.apache.iceberg.exceptions.ForbiddenException;
import org.apache.iceberg.rest.RESTCatalog;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Remote signing on an R2 catalog: the loopback {@link R2Gateway} stands in for R2 (it accepts a
 * request only with a valid SigV4 signature by the parent key pair, in front of the Ceph RGW bed),
 * Sluice signs with that pair after authorizing each request, and Iceberg's S3FileIO holds no key.
 */
@NeedsTestBeds
class R2RemoteSigningTest {
  private static final ObjectMapper JSON = new ObjectMapper();
  private static final String CATALOG = "r2signed";
  private static R2GatewayBed r2;
  private static R2Gateway gateway;
  private static TestServer server;
  private static String[] writer;
  private static String[] reader;

  @BeforeAll
  static void start() throws Exception {
    SignerClientReset.reset();
    r2 = R2GatewayBed.start("r2sign");
    gateway = r2.gateway();
    server =
        TestServer.start(
            null,
            CredentialSourcesYaml.s3Static("r2", r2.parentKeyId(), r2.parentSecret()).toYaml());
    String location = "s3://" + r2.bucket() + "/wh";
    Map<String, Object> storage =
        Map.of(
            "storageType",
            "R2",
            "allowedLocations",
            List.of(location),
            "endpoint",
            gateway.endpoint(),
            "accountId",
            R2GatewayBed.ACCOUNT,
            "credentialSource",
            "r2",
            "delegation",
            List.of("remote-signing"));
    HttpResponse<String> created =
        server.send(
            "POST",
            "/api/management/v1/catalogs",
            JSON.writeValueAsString(
                Map.of(
                    "catalog",
                    Map.of(
                        "name",
                        CATALOG,
                        "type",
                        "INTERNAL",
                        "properties",
                        Map.of("default-base-location", location),
                        "storageConfigInfo",
                        storage))));
    assertThat(created.statusCode()).as(created.body()).isEqualTo(201);
    assertThat(
            server
                .send(
                    "POST",
                    "/api/catalog/v1/" + CATALOG + "/namespaces",
                    "{\"namespace\": [\"sales\"]}")
                .statusCode())
        .isEqualTo(200);
    Admin admin = new Admin(server);
    WriterAndReader people =
        WriterAndReader.create(admin)
            .writes(
                CATALOG,
                "write_sales",
                List.of("sales"),
                List.of("TABLE_WRITE_DATA", "TABLE_CREATE"))
            .reads(CATALOG, "read_sales", List.of("sales"));
    writer = people.writer();
    reader = people.reader();
  }

  @AfterAll
  static void stop() throws Exception {
    SignerClientReset.reset();
    if (server != null) {
      server.close();
    }
    if (r2 != null) {
      r2.close();
    }
  }

  private static RESTCatalog client(String[] credentials) {
    RESTCatalog client = new RESTCatalog();
    client.initialize(
        "r2-signing-" + credentials[0],
        Map.of(
            "uri",
            server.catalogUri(),
            "warehouse",
            CATALOG,
            "credential",
            credentials[0] + ":" + credentials[1]));
    return client;
  }

  @Test
  void aKeylessClientWritesAndReadsThroughRequestsSluiceSignedWithTheParentKey() throws Exception {
    TableIdentifier id = TableIdentifier.of(Namespace.of("sales"), "orders");
    long allowedBefore = gateway.allowed();
    String location;
    try (RESTCatalog client = client(writer)) {
      Table table = client.createTable(id, SCHEMA);
      DataFile file = RgwVendingBed.writeDataFile(table, "part-0.parquet", "r2 bytes");
      table.newAppend().appendFile(file).commit();
      location = file.location();
      try (InputStream in = client.loadTable(id).io().newInputFile(location).newStream()) {
        assertThat(new String(in.readAllBytes(), StandardCharsets.UTF_8)).isEqualTo("r2 bytes");
      }
    }
    assertThat(gateway.allowed() - allowedBefore)
        .as("requests the gateway accepted with Sluice's signatures")
        .isPositive();
    assertThat(r2.adminGet(location.replace("s3://" + r2.bucket() + "/", "")))
        .isEqualTo("r2 bytes".getBytes(StandardCharsets.UTF_8));

    JsonNode config =
        TestServer.json(
                server
                    .sendAs(
                        server.token(writer[0], writer[1]),
                        "GET",
                        "/api/catalog/v1/" + CATALOG + "/namespaces/sales/tables/orders",
                        null)
                    .body())
            .get("config");
    assertThat(config.get("s3.remote-signing-enabled").asText()).isEqualTo("true");
    assertThat(config.get("client.region").asText()).isEqualTo("auto");
    assertThat(config.toString()).doesNotContain("s3.access-key-id", r2.parentSecret());
  }

  @Test
  void aReadersWriteIsRefusedBySluiceAndNeverReachesTheGateway() throws Exception {
    TableIdentifier id = TableIdentifier.of(Namespace.of("sales"), "readonly");
    try (RESTCatalog client = client(writer)) {
      client.createTable(id, SCHEMA);
    }
    try (RESTCatalog client = client(reader)) {
      Table table = client.loadTable(id);
      String planted = table.location() + "/data/planted.parquet";
      long seen = gateway.allowed() + gateway.refusals();
      assertThatThrownBy(
              () -> {
                // createOrOverwrite: no existence check (a HEAD, which the reader may make) first.
                try (OutputStream out = table.io().newOutputFile(planted).createOrOverwrite()) {
                  out.write(1);
                }
              })
          .isInstanceOf(ForbiddenException.class)
          .hasMessageContaining("needs TABLE_WRITE_DATA");
      assertThat(gateway.allowed() + gateway.refusals())
          .as("requests that reached the gateway")
          .isEqualTo(seen);
      assertThat(r2.adminGet(planted.replace("s3://" + r2.bucket() + "/", "")))
          .as("the refused object on the store")
          .isNull();
    }
  }
}
