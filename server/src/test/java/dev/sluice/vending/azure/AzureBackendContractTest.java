package dev.sluice.vending.azure;

import com.azure.core.util.BinaryData;
import com.azure.storage.blob.BlobContainerClient;
import com.azure.storage.blob.BlobContainerClientBuilder;
import com.azure.storage.blob.models.BlobStorageException;
import com.azure.storage.blob.models.ListBlobsOptions;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.sluice.StandardBackends;
import dev.sluice.testing.AzuriteBed;
import dev.sluice.testing.EntraTokenFake;
import dev.sluice.testing.NeedsTestBeds;
import dev.sluice.vending.ClientProperties;
import dev.sluice.vending.CredentialSource;
import dev.sluice.vending.StorageBackendContract;
import dev.sluice.vending.StorageBackends;
import dev.sluice.vending.StorageCredential;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Supplier;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;

/**
 * The storage backend contract for Azure on Azurite (the real Microsoft emulator over HTTPS with
 * OAuth; fails, never skips, without the bed). The catalog's identity is a service principal whose
 * client secret azure-identity exchanges at a loopback Entra stand-in; Azurite issues the user
 * delegation key and enforces each SAS. Azurite is a flat account without directory SAS, so the
 * profile accepts container scope: the credential for a table must then be refused on every other
 * container (directory scope is checked offline in {@link SasSignerTest}). Each probe is a Blob
 * client holding only the vended SAS and endpoint.
 */
@NeedsTestBeds
class AzureBackendContractTest extends StorageBackendContract {
  private static final ObjectMapper JSON = new ObjectMapper();
  private static final String TENANT = "44444444-4444-4444-4444-444444444444";
  private static final String CLIENT = "55555555-5555-5555-5555-555555555555";
  private static AzuriteBed bed;
  private static EntraTokenFake entra;
  private static String container;
  private static String other;
  private static String sibling;
  private static Map<String, CredentialSource> sources;

  @BeforeAll
  static void bed() throws Exception {
    bed = AzuriteBed.bed().installAsDefault();
    entra = EntraTokenFake.start(bed);
    EntraTokenFake.Principal principal = entra.register(TENANT, CLIENT);
    container = bed.newContainer("contract");
    // A container whose name starts like the table's, and an unrelated one.
    sibling = container + "2";
    bed.adminClient().createBlobContainer(sibling);
    other = bed.newContainer("other");
    sources =
        Map.of(
            "azure", source("azure", principal.secret()), "azure-bad", source("azure-bad", "no"));
  }

  private static CredentialSource source(String name, String secret) {
    return StandardBackends.create()
        .parseSource(
            name,
            Map.of(
                "type",
                "azure-client-secret",
                "tenantId",
                TENANT,
                "clientId",
                CLIENT,
                "clientSecret",
                secret,
                "authorityHost",
                entra.authorityHost(),
                "endpoint",
                bed.blobEndpoint()));
  }

  @AfterAll
  static void closeFake() {
    if (entra != null) {
      entra.close();
    }
  }

  @Override
  protected StorageBackends backends() {
    return StandardBackends.create();
  }

  @Override
  protected Map<String, CredentialSource> sources() {
    return sources;
  }

  @Override
  protected String allowedLocation() {
    return bed.abfss(container, "wh");
  }

  @Override
  protected ObjectNode storageConfigInfo(int lifetimeSeconds) {
    return info("azure", lifetimeSeconds);
  }

  /** Entra refuses the secret: no delegation key, no SAS. */
  @Override
  protected ObjectNode failingStorageConfigInfo() {
    return info("azure-bad", 900);
  }

  private ObjectNode info(String source, int lifetimeSeconds) {
    ObjectNode info = JSON.createObjectNode();
    info.put("storageType", "AZURE");
    info.putArray("allowedLocations").add(allowedLocation());
    info.put("credentialSource", source);
    info.put("hierarchicalNamespace", false);
    info.put("allowContainerScope", true);
    info.put("durationSeconds", lifetimeSeconds);
    return info;
  }

  @Override
  protected boolean scopedBelowContainer() {
    return false;
  }

  /** The same paths in a container named like the table's, and in an unrelated one. */
  @Override
  protected List<String> outsideTheTable(String area) {
    String path = area.substring(allowedLocation().length());
    return List.of(bed.abfss(sibling, "wh" + path + "/a"), bed.abfss(other, "wh" + path + "/b"));
  }

  /** A SAS lifetime is whatever the signer writes into {@code se}. */
  @Override
  protected int shortestLifetimeSeconds() {
    return 1;
  }

  /** Azure names are literal inside a container: nothing allowed is beyond signing. */
  @Override
  protected List<String> backendUnsafeLocations(String area) {
    return List.of();
  }

  @Override
  protected Probe probe(StorageCredential credential) {
    String host = AzuriteBed.DFS_HOST;
    String sas = credential.config().get(ClientProperties.ADLS_SAS_TOKEN_PREFIX + host);
    String endpoint =
        credential.config().get(ClientProperties.ADLS_CONNECTION_STRING_PREFIX + host);
    if (sas == null || endpoint == null) {
      throw new AssertionError("the credential lacks the SAS or endpoint for " + host);
    }
    return new BlobProbe(endpoint, sas);
  }

  @Override
  protected void adminPut(String location, byte[] content) {
    AzureLocation l = AzureLocation.parse(location);
    bed.adminClient()
        .getBlobContainerClient(l.container())
        .getBlobClient(l.directory())
        .upload(BinaryData.fromBytes(content), true);
  }

  @Override
  protected Optional<byte[]> adminGet(String location) {
    AzureLocation l = AzureLocation.parse(location);
    var blob = bed.adminClient().getBlobContainerClient(l.container()).getBlobClient(l.directory());
    return blob.exists() ? Optional.of(blob.downloadContent().toBytes()) : Optional.empty();
  }

  @Override
  protected String metricsTag() {
    return "azure";
  }

  /** Blob operations with one SAS; answers are HTTP statuses. */
  private record BlobProbe(String endpoint, String sas) implements Probe {
    private BlobContainerClient client(AzureLocation l) {
      return new BlobContainerClientBuilder()
          .endpoint(endpoint)
          .containerName(l.container())
          .sasToken(sas)
          .httpClient(bed.httpClient())
          .buildClient();
    }

    @Override
    public Answer put(String location, byte[] content) {
      AzureLocation l = AzureLocation.parse(location);
      return answer(
          () -> {
            client(l).getBlobClient(l.directory()).upload(BinaryData.fromBytes(content), true);
            return 201;
          });
    }

    @Override
    public Answer get(String location) {
      AzureLocation l = AzureLocation.parse(location);
      return answer(
          () -> {
            client(l).getBlobClient(l.directory()).downloadContent();
            return 200;
          });
    }

    @Override
    public Answer list(String location) {
      AzureLocation l = AzureLocation.parse(location);
      ListBlobsOptions options = new ListBlobsOptions();
      if (!l.isContainerRoot()) {
        options.setPrefix(l.directory() + "/");
      }
      return answer(
          () -> {
            client(l).listBlobs(options, null).iterator().hasNext();
            return 200;
          });
    }

    @Override
    public Answer delete(String location) {
      AzureLocation l = AzureLocation.parse(location);
      return answer(
          () -> {
            client(l).getBlobClient(l.directory()).delete();
            return 202;
          });
    }

    private static Answer answer(Supplier<Integer> call) {
      try {
        return new Answer(call.get());
      } catch (BlobStorageException e) {
        return new Answer(e.getStatusCode());
      }
    }

    @Override
    public void close() {}
  }
}
