package dev.sluice;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.azure.storage.blob.BlobClient;
import com.azure.storage.blob.BlobContainerClient;
import com.azure.storage.blob.models.BlobItem;
import com.azure.storage.blob.models.BlobStorageException;
import com.azure.storage.blob.models.ListBlobsOptions;
import com.fasterxml.jackson.databind.JsonNode;
import dev.sluice.testing.AzuriteBed;
import dev.sluice.testing.CredentialSourcesYaml;
import dev.sluice.testing.EntraTokenFake;
import dev.sluice.testing.NeedsTestBeds;
import dev.sluice.testing.RgwVendingBed;
import dev.sluice.testing.TestServer;
import dev.sluice.testing.VendingContract;
import java.io.ByteArrayInputStream;
import java.net.URLDecoder;
import java.net.http.HttpResponse;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.apache.iceberg.DataFile;
import org.apache.iceberg.Table;
import org.apache.iceberg.catalog.TableIdentifier;
import org.apache.iceberg.rest.RESTCatalog;
import org.assertj.core.api.ThrowableAssert.ThrowingCallable;
import org.junit.jupiter.api.Test;

/**
 * Azure vending end to end on Azurite (the real Microsoft emulator, over HTTPS with OAuth; fails,
 * never skips, without the bed): a real Sluice server whose credential source is a service
 * principal's client secret, exchanged by azure-identity at a loopback stand-in for Entra ID, a
 * user delegation key from Azurite, and the real Iceberg client with ADLSFileIO holding no key of
 * its own. Azurite is a flat-namespace account without directory SAS, so the catalogs here accept
 * container scope (the operator's explicit choice): in {@link VendingContract}'s scenarios the
 * other container stands for what lies outside a credential. Directory SAS are proven offline in
 * {@code vending/azure/SasSignerTest} and vended here only to check their fields.
 */
@NeedsTestBeds
class AzureVendingTest extends VendingContract {
  private static final String TENANT = "22222222-2222-2222-2222-222222222222";
  private static final String CLIENT = "33333333-3333-3333-3333-333333333333";
  private static final String CATALOG = "azlake";
  private AzuriteBed bed;
  private EntraTokenFake entra;
  private String container;
  private String otherContainer;

  @Override
  protected TestServer startBackend() throws Exception {
    bed = AzuriteBed.bed().installAsDefault();
    entra = EntraTokenFake.start(bed);
    EntraTokenFake.Principal sluice = entra.register(TENANT, CLIENT);
    container = bed.newContainer("lake");
    otherContainer = bed.newContainer("other");
    server =
        TestServer.start(
            null,
            CredentialSourcesYaml.azureClientSecret(
                    "azure",
                    TENANT,
                    CLIENT,
                    sluice.secret(),
                    entra.authorityHost(),
                    bed.blobEndpoint())
                .vendingMinDurationSeconds(1)
                .toYaml());
    createCatalog(CATALOG, "wh", Map.of());
    createCatalog("azother", otherContainer, "wh", Map.of());
    for (String[] ns :
        List.of(
            new String[] {CATALOG, "sales"},
            new String[] {CATALOG, "hr"},
            new String[] {"azother", "x"})) {
      assertThat(namespace(ns[0], ns[1]).statusCode()).isEqualTo(200);
    }
    return server;
  }

  @Override
  protected void afterPrincipals() throws Exception {
    people.writes("azother", List.of("x"));
  }

  @Override
  protected void stopBackend() throws Exception {
    if (server != null) {
      server.close();
    }
    if (entra != null) {
      entra.close();
    }
  }

  // ---- the contract's hooks ----

  @Override
  protected String catalog() {
    return CATALOG;
  }

  /** A container-scoped catalog (Azurite is flat) on {@code abfss://<lake container>@.../path}. */
  @Override
  protected void createCatalog(String name, String path, Map<String, Object> extra)
      throws Exception {
    createCatalog(name, container, path, extra);
  }

  private void createCatalog(String name, String container, String path, Map<String, Object> extra)
      throws Exception {
    String location = bed.abfss(container, path);
    Map<String, Object> storage = new HashMap<>(extra);
    storage.put("storageType", "AZURE");
    storage.put("allowedLocations", List.of(location));
    storage.put("credentialSource", "azure");
    storage.put("tenantId", TENANT);
    storage.putIfAbsent("hierarchicalNamespace", false);
    storage.putIfAbsent("allowContainerScope", true);
    HttpResponse<String> created = server.postCatalog(name, location, storage);
    assertThat(created.statusCode()).as(created.body()).isEqualTo(201);
  }

  /** Blob clients of the location's container holding only the vended SAS. */
  @Override
  protected StoreClient store(JsonNode config) {
    String sas = sas(config);
    return new StoreClient() {
      private BlobClient blobClient(String location) {
        return bed.sasContainerClient(containerOf(location), sas).getBlobClient(blob(location));
      }

      @Override
      public byte[] get(String location) {
        return blobClient(location).downloadContent().toBytes();
      }

      @Override
      public void put(String location, byte[] content) {
        blobClient(location).upload(new ByteArrayInputStream(content), content.length, true);
      }

      @Override
      public void delete(String location) {
        blobClient(location).delete();
      }

      @Override
      public List<String> list(String location) {
        BlobContainerClient client = bed.sasContainerClient(containerOf(location), sas);
        String prefix = blob(location);
        List<String> names = new ArrayList<>();
        for (BlobItem item :
            client.listBlobs(
                new ListBlobsOptions().setPrefix(prefix.isEmpty() ? null : prefix), null)) {
          names.add(item.getName());
        }
        return names;
      }
    };
  }

  @Override
  protected byte[] adminRead(String location) {
    BlobClient blob =
        bed.adminClient()
            .getBlobContainerClient(containerOf(location))
            .getBlobClient(blob(location));
    return blob.exists() ? blob.downloadContent().toBytes() : null;
  }

  @Override
  protected void assertRefused(ThrowingCallable call) {
    assertThatThrownBy(call)
        .isInstanceOf(BlobStorageException.class)
        .satisfies(e -> assertThat(((BlobStorageException) e).getStatusCode()).isIn(401, 403));
  }

  /** ADLSFileIO swallows delete errors: the object must simply still be there. */
  @Override
  protected boolean ioSwallowsRefusedDeletes() {
    return true;
  }

  @Override
  protected String refreshEndpointProperty() {
    return "adls.refresh-credentials-endpoint";
  }

  /** A container SAS: the allowContainerScope catalogs' credential covers the container. */
  @Override
  protected String credentialPrefix(String tableLocation) {
    return "abfss://" + container + "@" + AzuriteBed.DFS_HOST;
  }

  @Override
  protected void assertWriterResponse(JsonNode response, Table table) {
    JsonNode config = response.get("storage-credentials").get(0).get("config");
    assertThat(config.get("adls.connection-string." + AzuriteBed.DFS_HOST).asText())
        .isEqualTo(bed.blobEndpoint());
    assertThat(fields(sas(config)))
        .containsEntry("sr", "c")
        .containsEntry("sp", "racwdl")
        .containsEntry("spr", "https")
        .containsKeys("skoid", "sktid", "ske", "sig")
        .doesNotContainKeys("ss", "srt");
    assertThat(response.toString()).as("never the account key").doesNotContain("Eby8vdM02xNOcqFl");
  }

  @Override
  protected Runnable watchRoundTrip() {
    return () ->
        assertThat(entra.issued()).as("the catalog's identity came from Entra").isPositive();
  }

  /** A container SAS covers every table of its container, by the operator's choice. */
  @Override
  protected boolean scopedToTheTable() {
    return false;
  }

  /** A table of catalog azother, in the other container. */
  @Override
  protected List<String> filesElsewhere(String t) throws Exception {
    try (RESTCatalog client = client("azother", writer)) {
      Table b = client.createTable(TableIdentifier.of("x", "b"), SCHEMA);
      DataFile file = RgwVendingBed.writeDataFile(b, "b.parquet", "other");
      b.newAppend().appendFile(file).commit();
      return List.of(file.location());
    }
  }

  @Override
  protected List<String> widerLists(String t) {
    return List.of(bed.abfss(otherContainer, ""));
  }

  @Override
  protected long expiresAtMillis(JsonNode config) {
    return config.get("adls.sas-token-expires-at-ms." + AzuriteBed.DFS_HOST).asLong();
  }

  @Override
  protected void assertExpiredRefused(JsonNode config, String location) {
    StoreClient expired = store(config);
    assertRefused(() -> expired.get(location));
  }

  @Override
  protected void assertReadWrite(JsonNode config) {
    assertThat(fields(sas(config)).get("sp")).isEqualTo("racwdl");
  }

  @Override
  protected void assertReadOnly(JsonNode config) {
    assertThat(fields(sas(config)).get("sp")).isEqualTo("rl");
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

  /** The container of an abfss location. */
  private static String containerOf(String location) {
    return location.substring("abfss://".length(), location.indexOf('@'));
  }

  /** The blob name of an abfss location ("" for the container root). */
  private static String blob(String location) {
    String afterHost = location.substring(location.indexOf('@') + 1);
    int slash = afterHost.indexOf('/');
    return slash < 0 ? "" : afterHost.substring(slash + 1);
  }

  // ---- Azure's own ----

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
        "wh",
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
