package dev.sluice;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.azure.storage.blob.BlobContainerClient;
import com.azure.storage.blob.models.BlobStorageException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.sluice.testing.Admin;
import dev.sluice.testing.AzuriteBed;
import dev.sluice.testing.EntraTokenFake;
import dev.sluice.testing.NeedsTestBeds;
import dev.sluice.testing.RgwVendingBed;
import dev.sluice.testing.TestServer;
import java.io.ByteArrayInputStream;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.URI;
import java.net.URLDecoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.apache.iceberg.DataFile;
import org.apache.iceberg.Table;
import org.apache.iceberg.catalog.TableIdentifier;
import org.apache.iceberg.rest.RESTCatalog;
import org.assertj.core.api.ThrowableAssert.ThrowingCallable;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Azure vending end to end on Azurite (the real Microsoft emulator, over HTTPS with OAuth; fails,
 * never skips, without the bed): a real Sluice server whose credential source is a service
 * principal's client secret, exchanged by azure-identity at a loopback stand-in for Entra ID, a
 * user delegation key from Azurite, and the real Iceberg client with ADLSFileIO holding no key of
 * its own. Azurite is a flat-namespace account without directory SAS, so the catalogs here accept
 * container scope (the operator's explicit choice); directory SAS are proven offline in {@code
 * vending/azure/SasSignerTest} and vended here only to check their fields.
 */
@NeedsTestBeds
class AzureVendingTest {
  private static final ObjectMapper JSON = new ObjectMapper();
  private static final String TENANT = "22222222-2222-2222-2222-222222222222";
  private static final String CLIENT = "33333333-3333-3333-3333-333333333333";
  private static final String CATALOG = "azlake";
  private static AzuriteBed bed;
  private static EntraTokenFake entra;
  private static TestServer server;
  private static Admin admin;
  private static String container;
  private static String otherContainer;
  private static String[] writer;
  private static String[] reader;

  @BeforeAll
  static void start() throws Exception {
    bed = AzuriteBed.bed().installAsDefault();
    entra = EntraTokenFake.start(bed);
    EntraTokenFake.Principal sluice = entra.register(TENANT, CLIENT);
    container = bed.newContainer("lake");
    otherContainer = bed.newContainer("other");
    server =
        TestServer.start(
            null,
            "storage:\n  credentialSources:\n    azure:\n      type: azure-client-secret\n"
                + "      tenantId: \""
                + TENANT
                + "\"\n      clientId: \""
                + CLIENT
                + "\"\n      clientSecret: \""
                + sluice.secret()
                + "\"\n      authorityHost: \""
                + entra.authorityHost()
                + "\"\n      endpoint: \""
                + bed.blobEndpoint()
                + "\"\n  vendingMinDurationSeconds: 1\n");
    createCatalog(CATALOG, container, Map.of());
    createCatalog("azother", otherContainer, Map.of());
    admin = new Admin(server);
    for (String[] ns : List.of(new String[] {CATALOG, "sales"}, new String[] {"azother", "x"})) {
      assertThat(namespace(ns[0], ns[1]).statusCode()).isEqualTo(200);
    }
    writer = admin.principal("writer", "writers");
    reader = admin.principal("reader", "readers");
    for (String catalog : List.of(CATALOG, "azother")) {
      admin.catalogRole(catalog, "write_all", "writers");
      String ns = catalog.equals(CATALOG) ? "sales" : "x";
      for (String privilege : List.of("TABLE_WRITE_DATA", "TABLE_CREATE", "TABLE_FULL_METADATA")) {
        admin.grant(
            catalog, "write_all", Admin.grantJson("namespace", List.of(ns), null, privilege));
      }
    }
    admin.catalogRole(CATALOG, "read_sales", "readers");
    admin.grant(
        CATALOG,
        "read_sales",
        Admin.grantJson("namespace", List.of("sales"), null, "TABLE_READ_DATA"));
  }

  @AfterAll
  static void stop() throws Exception {
    if (server != null) {
      server.close();
    }
    if (entra != null) {
      entra.close();
    }
  }

  /** A container-scoped catalog (Azurite is flat) on {@code abfss://<container>@.../wh}. */
  private static void createCatalog(String name, String container, Map<String, Object> extra)
      throws Exception {
    String location = bed.abfss(container, "wh");
    Map<String, Object> storage = new HashMap<>(extra);
    storage.put("storageType", "AZURE");
    storage.put("allowedLocations", List.of(location));
    storage.put("credentialSource", "azure");
    storage.put("tenantId", TENANT);
    storage.putIfAbsent("hierarchicalNamespace", false);
    storage.putIfAbsent("allowContainerScope", true);
    String json =
        JSON.writeValueAsString(
            Map.of(
                "catalog",
                Map.of(
                    "name",
                    name,
                    "type",
                    "INTERNAL",
                    "properties",
                    Map.of("default-base-location", location),
                    "storageConfigInfo",
                    storage)));
    HttpResponse<String> created = server.send("POST", "/api/management/v1/catalogs", json);
    assertThat(created.statusCode()).as(created.body()).isEqualTo(201);
  }

  private static HttpResponse<String> namespace(String catalog, String ns) throws Exception {
    return server.send(
        "POST", "/api/catalog/v1/" + catalog + "/namespaces", "{\"namespace\": [\"" + ns + "\"]}");
  }

  private static RESTCatalog client(String catalog, String[] credentials) {
    RESTCatalog client = new RESTCatalog();
    client.initialize(
        "sluice",
        Map.of(
            "uri",
            server.catalogUri(),
            "warehouse",
            catalog,
            "credential",
            credentials[0] + ":" + credentials[1]));
    return client;
  }

  private static HttpResponse<String> get(String[] who, String path) throws Exception {
    HttpRequest request =
        HttpRequest.newBuilder(URI.create(server.baseUrl() + path))
            .header("Authorization", "Bearer " + server.token(who[0], who[1]))
            .header(RgwVendingBed.DELEGATION, "vended-credentials")
            .build();
    return HttpClient.newHttpClient().send(request, HttpResponse.BodyHandlers.ofString());
  }

  private static String tablePath(String catalog, String ns, String table) {
    return "/api/catalog/v1/" + catalog + "/namespaces/" + ns + "/tables/" + table;
  }

  /** The one vended credential's config, through the refresh endpoint. */
  private static JsonNode refreshed(String[] who, String catalog, String ns, String table)
      throws Exception {
    HttpResponse<String> response = get(who, tablePath(catalog, ns, table) + "/credentials");
    assertThat(response.statusCode()).as(response.body()).isEqualTo(200);
    JsonNode credentials = TestServer.json(response.body()).get("storage-credentials");
    assertThat(credentials).hasSize(1);
    return credentials.get(0).get("config");
  }

  private static String sas(JsonNode config) {
    return config.get("adls.sas-token." + AzuriteBed.DFS_HOST).asText();
  }

  private static Map<String, String> fields(String sas) {
    Map<String, String> fields = new LinkedHashMap<>();
    for (String pair : sas.split("&")) {
      int eq = pair.indexOf('=');
      fields.put(pair.substring(0, eq), URLDecoder.decode(pair.substring(eq + 1), UTF_8));
    }
    return fields;
  }

  /** The blob name of an abfss location in {@code container}. */
  private static String blob(String container, String location) {
    return location.substring(bed.abfss(container, "").length());
  }

  private static boolean exists(String container, String location) {
    return bed.adminClient()
        .getBlobContainerClient(container)
        .getBlobClient(blob(container, location))
        .exists();
  }

  private static void assertRefused(ThrowingCallable call) {
    assertThatThrownBy(call)
        .isInstanceOf(BlobStorageException.class)
        .satisfies(e -> assertThat(((BlobStorageException) e).getStatusCode()).isIn(401, 403));
  }

  private static void upload(BlobContainerClient client, String name) {
    client.getBlobClient(name).upload(new ByteArrayInputStream(new byte[] {1}), 1, true);
  }

  private static String read(Table table, String location) throws Exception {
    try (InputStream in = table.io().newInputFile(location).newStream()) {
      return new String(in.readAllBytes(), UTF_8);
    }
  }

  @Test
  void writerCreatesAppendsReadsBackAndDeletesWithAUserDelegationSasOnly() throws Exception {
    TableIdentifier id = TableIdentifier.of("sales", "orders");
    try (RESTCatalog client = client(CATALOG, writer)) {
      Table table = client.createTable(id, RgwVendingBed.SCHEMA);
      DataFile file = RgwVendingBed.writeDataFile(table, "a.parquet", "order-1");
      table.newAppend().appendFile(file).commit();
      Table reloaded = client.loadTable(id);
      assertThat(reloaded.currentSnapshot().addedDataFiles(reloaded.io())).hasSize(1);
      assertThat(read(reloaded, file.location())).isEqualTo("order-1");
      assertThat(exists(container, file.location())).isTrue();

      HttpResponse<String> loaded = get(writer, tablePath(CATALOG, "sales", "orders"));
      JsonNode response = TestServer.json(loaded.body());
      JsonNode credential = response.get("storage-credentials");
      assertThat(credential).hasSize(1);
      assertThat(credential.get(0).get("prefix").asText())
          .isEqualTo("abfss://" + container + "@" + AzuriteBed.DFS_HOST);
      JsonNode config = credential.get(0).get("config");
      assertThat(config.get("adls.connection-string." + AzuriteBed.DFS_HOST).asText())
          .isEqualTo(bed.blobEndpoint());
      Map<String, String> sas = fields(sas(config));
      assertThat(sas)
          .containsEntry("sr", "c")
          .containsEntry("sp", "racwdl")
          .containsEntry("spr", "https")
          .containsKeys("skoid", "sktid", "ske", "sig")
          .doesNotContainKeys("ss", "srt");
      assertThat(response.get("config").get("adls.refresh-credentials-endpoint").asText())
          .isEqualTo("v1/" + CATALOG + "/namespaces/sales/tables/orders/credentials");
      assertThat(loaded.body()).as("never the account key").doesNotContain("Eby8vdM02xNOcqFl");

      reloaded.io().deleteFile(file.location());
      assertThat(exists(container, file.location())).as("deleted").isFalse();
      assertThat(client.dropTable(id, true)).isTrue();
    }
    assertThat(entra.issued()).as("the catalog's identity came from Entra").isPositive();
  }

  @Test
  void aReadOnlyPrincipalsWriteAndDeleteAreRefusedByAzurite() throws Exception {
    DataFile file;
    try (RESTCatalog client = client(CATALOG, writer)) {
      Table table = client.createTable(TableIdentifier.of("sales", "ro"), RgwVendingBed.SCHEMA);
      file = RgwVendingBed.writeDataFile(table, "x.parquet", "read-me");
      table.newAppend().appendFile(file).commit();
    }
    String evil = file.location().replace("x.parquet", "evil.parquet");
    try (RESTCatalog client = client(CATALOG, reader)) {
      Table table = client.loadTable(TableIdentifier.of("sales", "ro"));
      assertThat(read(table, file.location())).isEqualTo("read-me");
      assertThatThrownBy(
              () -> {
                try (OutputStream out = table.io().newOutputFile(evil).create()) {
                  out.write(1);
                }
              })
          .hasStackTraceContaining("403");
      // ADLSFileIO swallows delete errors: the object must simply still be there.
      try {
        table.io().deleteFile(file.location());
      } catch (RuntimeException refused) {
        assertThat(refused).hasStackTraceContaining("403");
      }
    }
    assertThat(exists(container, evil)).as("after a refused write").isFalse();
    assertThat(exists(container, file.location())).as("after a refused delete").isTrue();
    JsonNode config = refreshed(reader, CATALOG, "sales", "ro");
    assertThat(fields(sas(config)).get("sp")).isEqualTo("rl");
    BlobContainerClient readOnly = bed.sasContainerClient(container, sas(config));
    assertThat(
            readOnly.getBlobClient(blob(container, file.location())).downloadContent().toString())
        .isEqualTo("read-me");
    assertRefused(() -> upload(readOnly, blob(container, evil)));
    assertRefused(() -> readOnly.getBlobClient(blob(container, file.location())).delete());
    assertThat(exists(container, evil)).isFalse();
    assertThat(exists(container, file.location())).isTrue();
  }

  @Test
  void aSasForOneContainerIsRefusedOnAnother() throws Exception {
    try (RESTCatalog client = client("azother", writer)) {
      Table b = client.createTable(TableIdentifier.of("x", "b"), RgwVendingBed.SCHEMA);
      b.newAppend().appendFile(RgwVendingBed.writeDataFile(b, "b.parquet", "other")).commit();
    }
    try (RESTCatalog client = client(CATALOG, writer)) {
      client.createTable(TableIdentifier.of("sales", "a"), RgwVendingBed.SCHEMA);
    }
    String sas = sas(refreshed(writer, CATALOG, "sales", "a"));
    BlobContainerClient elsewhere = bed.sasContainerClient(otherContainer, sas);
    assertRefused(() -> elsewhere.listBlobs().iterator().hasNext());
    assertRefused(() -> upload(elsewhere, "wh/x/b/data/evil.parquet"));
    assertThat(
            bed.adminClient()
                .getBlobContainerClient(otherContainer)
                .getBlobClient("wh/x/b/data/evil.parquet")
                .exists())
        .isFalse();
  }

  /** A 3-second SAS is refused by Azurite; the client that held it refreshes and reads on. */
  @Test
  void anExpiredSasIsRefusedAndTheClientRefreshesThroughTheCatalog() throws Exception {
    createCatalog("azshort", container, Map.of("durationSeconds", 3));
    HttpResponse<String> ns = namespace("azshort", "n");
    assertThat(ns.statusCode()).as(ns.body()).isEqualTo(200);
    String[] root = {TestServer.CLIENT_ID, TestServer.SECRET};
    try (RESTCatalog client = client("azshort", root)) {
      Table table = client.createTable(TableIdentifier.of("n", "long_read"), RgwVendingBed.SCHEMA);
      DataFile file = RgwVendingBed.writeDataFile(table, "r.parquet", "still-readable");
      table.newAppend().appendFile(file).commit();
      JsonNode first = refreshed(root, "azshort", "n", "long_read");
      long expiresAt = first.get("adls.sas-token-expires-at-ms." + AzuriteBed.DFS_HOST).asLong();
      assertThat(expiresAt).isLessThanOrEqualTo(System.currentTimeMillis() + 3000);
      Table reader = client.loadTable(TableIdentifier.of("n", "long_read"));
      Thread.sleep(Math.max(0, expiresAt - System.currentTimeMillis()) + 1500);
      BlobContainerClient expired = bed.sasContainerClient(container, sas(first));
      assertRefused(
          () -> expired.getBlobClient(blob(container, file.location())).downloadContent());
      assertThat(read(reader, file.location())).isEqualTo("still-readable");
    }
  }

  @Test
  void aRevokedWriteGrantGivesAReadOnlySasAtTheNextRefresh() throws Exception {
    String[] editor = admin.principal("editor", "editors");
    admin.catalogRole(CATALOG, "edit", "editors");
    String write = Admin.grantJson("table", List.of("sales"), "payroll", "TABLE_WRITE_DATA");
    try (RESTCatalog client = client(CATALOG, writer)) {
      client.createTable(TableIdentifier.of("sales", "payroll"), RgwVendingBed.SCHEMA);
    }
    admin.grant(CATALOG, "edit", write);
    assertThat(fields(sas(refreshed(editor, CATALOG, "sales", "payroll"))).get("sp"))
        .isEqualTo("racwdl");
    admin.revoke(CATALOG, "edit", write);
    admin.grant(
        CATALOG, "edit", Admin.grantJson("table", List.of("sales"), "payroll", "TABLE_READ_DATA"));
    String after = sas(refreshed(editor, CATALOG, "sales", "payroll"));
    assertThat(fields(after).get("sp")).isEqualTo("rl");
    BlobContainerClient readOnly = bed.sasContainerClient(container, after);
    assertRefused(() -> upload(readOnly, "wh/sales/payroll/data/w.parquet"));
    assertThat(
            bed.adminClient()
                .getBlobContainerClient(container)
                .getBlobClient("wh/sales/payroll/data/w.parquet")
                .exists())
        .isFalse();
  }

  /**
   * The storage self-check through the management API on this server's container-scoped catalog: it
   * passes on Azurite's own refusals; the rows Azurite cannot show (List Paths) and those the
   * container scope covers by design are skipped with their reason, never passed; no SAS in the
   * answer.
   */
  @Test
  void theSelfCheckPassesEveryApplicableRowOnAzuritesRefusals() throws Exception {
    HttpResponse<String> response =
        server.send(
            "POST",
            "/api/management/v1/catalogs/" + CATALOG + "/verify",
            "{\"otherLocation\": \"" + bed.abfss(otherContainer, "") + "\"}");
    assertThat(response.statusCode()).as(response.body()).isEqualTo(200);
    JsonNode report = TestServer.json(response.body());
    assertThat(report.get("verdict").asText()).as(response.body()).isEqualTo("pass");
    assertThat(report.get("failed").asInt()).isZero();
    int refusals = 0;
    for (JsonNode check : report.get("checks")) {
      String outcome = check.get("outcome").asText();
      if (outcome.equals("skipped")) {
        assertThat(check.get("pass").asBoolean()).isFalse();
        assertThat(check.get("explanation").asText())
            .as(check.toString())
            .startsWith("not applicable: ")
            .containsAnyOf("Azurite has no List Paths", "allowContainerScope: true");
      } else {
        assertThat(outcome).as(check.toString()).isEqualTo("pass");
        if (check.get("expected").asText().equals("refused")) {
          assertThat(check.get("status").asInt()).as(check.toString()).isEqualTo(403);
          refusals++;
        }
      }
    }
    // The reader's write and delete, the write in the other container, the expired SAS.
    assertThat(refusals).as(response.body()).isEqualTo(4);
    assertThat(response.body()).doesNotContain("sig=").doesNotContain("skoid");
  }

  /**
   * A hierarchical-namespace catalog vends a directory SAS on the table's own directory (Azurite
   * cannot enforce it; its fields and signature are checked offline in SasSignerTest).
   */
  @Test
  void aHierarchicalNamespaceCatalogVendsADirectorySas() throws Exception {
    createCatalog(
        "azhns",
        container,
        Map.of(
            "hierarchicalNamespace",
            true,
            "allowContainerScope",
            false,
            "vendCredentials",
            "on-request"));
    // Its own namespace name: catalogs on one container share the no-overlap rule.
    assertThat(namespace("azhns", "h").statusCode()).isEqualTo(200);
    HttpResponse<String> created =
        server.send(
            "POST",
            "/api/catalog/v1/azhns/namespaces/h/tables",
            "{\"name\":\"t\",\"schema\":" + AuthorizationMatrixTest.SCHEMA + "}");
    assertThat(created.statusCode()).as(created.body()).isEqualTo(200);
    String[] root = {TestServer.CLIENT_ID, TestServer.SECRET};
    JsonNode config = refreshed(root, "azhns", "h", "t");
    Map<String, String> sas = fields(sas(config));
    assertThat(sas)
        .containsEntry("sr", "d")
        .containsEntry("sdd", "3")
        .containsEntry("sp", "racwdl");
  }
}
