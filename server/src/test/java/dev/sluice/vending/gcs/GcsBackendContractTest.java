package dev.sluice.vending.gcs;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.google.cloud.storage.BlobId;
import com.google.cloud.storage.Storage;
import com.google.cloud.storage.StorageException;
import com.google.cloud.storage.StorageOptions;
import dev.sluice.StandardBackends;
import dev.sluice.location.StorageLocation;
import dev.sluice.testing.gcp.GoogleCloudFake;
import dev.sluice.testing.gcp.ServiceAccount;
import dev.sluice.vending.AccessMode;
import dev.sluice.vending.ClientProperties;
import dev.sluice.vending.CredentialSource;
import dev.sluice.vending.StorageBackendContract;
import dev.sluice.vending.StorageBackends;
import dev.sluice.vending.StorageCredential;
import dev.sluice.vending.StorageProfile;
import dev.sluice.vending.StorageTimeouts;
import dev.sluice.vending.VendingException;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The storage backend contract for GCS, through the loopback {@link GoogleCloudFake} (Google's
 * documented OAuth, STS and IAM Credentials, and the GCS JSON API enforcing each token's account
 * IAM, access boundary and expiry). The catalog impersonates a vending account, so {@code
 * durationSeconds} sets the token lifetime; each probe is a raw JSON API client holding only the
 * vended {@code gcs.oauth2.token} and {@code gcs.service.host}, so the fake, not Sluice, decides
 * what a token may touch (and an expired token is really sent, which google-cloud-storage would
 * refuse to do).
 */
class GcsBackendContractTest extends StorageBackendContract {
  private static final ObjectMapper JSON = new ObjectMapper();
  private static final String BUCKET = "contract-lake";
  private static final String CATALOG_SA = "contract-catalog@proj-123.iam.gserviceaccount.com";
  private static final String VENDING_SA = "contract-vend@proj-123.iam.gserviceaccount.com";
  private static final String STRANGER_SA = "contract-stranger@proj-123.iam.gserviceaccount.com";
  private static final HttpClient HTTP = HttpClient.newHttpClient();
  private static final Duration WAIT = StorageTimeouts.Provider.DEFAULT.loadWait();
  private static GoogleCloudFake google;
  private static Map<String, CredentialSource> sources;

  @BeforeAll
  static void fake() throws Exception {
    google = GoogleCloudFake.start();
    google.createBucket(BUCKET);
    ServiceAccount catalog = google.addServiceAccount(CATALOG_SA, "proj-123", Set.of(BUCKET));
    google.addServiceAccount(VENDING_SA, "proj-123", Set.of(BUCKET));
    google.addServiceAccount(STRANGER_SA, "proj-123", Set.of(BUCKET));
    google.allowImpersonation(CATALOG_SA, VENDING_SA);
    Path key = catalog.writeKeyFile(Files.createTempFile("gcs-contract", ".json"));
    sources =
        Map.of(
            "gcp",
            StandardBackends.create()
                .parseSource(
                    "gcp",
                    Map.of(
                        "type",
                        "google-service-account",
                        "keyFile",
                        key.toString(),
                        "endpoint",
                        google.endpoint())));
  }

  @AfterAll
  static void closeFake() {
    if (google != null) {
      google.close();
    }
  }

  /**
   * Google stalled (it takes requests and answers none): a load that needs a token waits the
   * provider's load wait ({@code storage.providerWait}, 7 s by default), not google-auth's 20 s per
   * attempt, then fails naming the catalog.
   */
  @Test
  void aStalledTokenExchangeFailsTheLoadWithinTheWait() {
    StorageProfile profile = profile("stalled", storageConfigInfo(900));
    google.setStalled(true);
    long start = System.nanoTime();
    try {
      assertThatThrownBy(() -> vend(profile, area() + "/s", Map.of(), AccessMode.READ))
          .isInstanceOf(VendingException.class)
          .hasMessageContaining("catalog stalled")
          .hasMessageContaining("did not answer within " + WAIT.toMillis() + " ms");
    } finally {
      google.setStalled(false);
    }
    assertThat(Duration.ofNanos(System.nanoTime() - start)).isBetween(WAIT, WAIT.plusSeconds(2));
  }

  /**
   * The catalog's own reads on a stalled GCS give up within the bound {@link GcsBackend#bounded}
   * sets (the catalog's {@code storage.catalogIoTimeouts}, as on S3), not after the client's six
   * attempts of 20 s. Measured here with bounds of 1 s per attempt and 2 s in all.
   */
  @Test
  void aStalledStoreFailsTheCatalogsReadWithinItsBound() {
    String name = area().substring(allowedLocation().length() + 1) + "/metadata/00000.json";
    google.put(BUCKET, "wh/" + name, "{}".getBytes(UTF_8));
    GoogleCredentialSource source = (GoogleCredentialSource) sources.get("gcp");
    Storage storage =
        GcsBackend.bounded(
                StorageOptions.newBuilder()
                    .setCredentials(source.credentials())
                    .setProjectId("proj-123")
                    .setHost(google.endpoint()),
                new StorageTimeouts.CatalogIo(Duration.ofSeconds(1), Duration.ofSeconds(2), 3))
            .build()
            .getService();
    BlobId blob = BlobId.of(BUCKET, "wh/" + name);
    assertThat(storage.readAllBytes(blob))
        .as("read before the stall (the token is fetched)")
        .hasSize(2);
    google.setStalled(true);
    long start = System.nanoTime();
    try {
      assertThatThrownBy(() -> storage.readAllBytes(blob))
          .as("a read while GCS answers nothing")
          .isInstanceOf(StorageException.class);
    } finally {
      google.setStalled(false);
    }
    assertThat(Duration.ofNanos(System.nanoTime() - start))
        .isBetween(Duration.ofSeconds(1), Duration.ofSeconds(4));
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
    return "gs://" + BUCKET + "/wh";
  }

  @Override
  protected ObjectNode storageConfigInfo(int lifetimeSeconds) {
    return info(VENDING_SA, lifetimeSeconds);
  }

  /** Impersonation the catalog's identity holds no token creator role for: IAM answers 403. */
  @Override
  protected ObjectNode failingStorageConfigInfo() {
    return info(STRANGER_SA, 900);
  }

  private ObjectNode info(String serviceAccount, int lifetimeSeconds) {
    ObjectNode info = JSON.createObjectNode();
    info.put("storageType", "GCS");
    info.putArray("allowedLocations").add(allowedLocation());
    info.put("credentialSource", "gcp");
    info.put("gcsServiceAccount", serviceAccount);
    info.put("durationSeconds", lifetimeSeconds);
    return info;
  }

  /** IAM Credentials issues tokens from one second. */
  @Override
  protected int shortestLifetimeSeconds() {
    return 1;
  }

  /** A quote would end the string literal of the boundary's condition. */
  @Override
  protected List<String> backendUnsafeLocations(String area) {
    return List.of(area + "/q'uote", area + "/d\"q", area + "/x') || true || ('");
  }

  @Override
  protected Probe probe(StorageCredential credential) {
    return new JsonApiProbe(
        credential.config().get(ClientProperties.GCS_SERVICE_HOST),
        credential.config().get(ClientProperties.GCS_OAUTH2_TOKEN));
  }

  @Override
  protected void adminPut(String location, byte[] content) {
    StorageLocation parsed = StorageLocation.parse(location);
    google.put(parsed.authority(), String.join("/", parsed.segments()), content);
  }

  @Override
  protected Optional<byte[]> adminGet(String location) {
    StorageLocation parsed = StorageLocation.parse(location);
    return google.bytes(parsed.authority(), String.join("/", parsed.segments()));
  }

  @Override
  protected boolean planNamesObjects() {
    return true;
  }

  /** Enough exact-object clauses that the bucket's condition passes 2,048 characters. */
  @Override
  protected int planFilesBeyondObjects() {
    return 40;
  }

  @Override
  protected String metricsTag() {
    return "gcs";
  }

  /** The GCS JSON API over plain HTTP with one bearer token; answers are HTTP statuses. */
  private record JsonApiProbe(String host, String token) implements Probe {
    JsonApiProbe {
      if (host == null || token == null) {
        throw new AssertionError("the credential lacks gcs.service.host or gcs.oauth2.token");
      }
    }

    @Override
    public Answer put(String location, byte[] content) {
      StorageLocation l = StorageLocation.parse(location);
      return send(
          "POST",
          "/upload/storage/v1/b/" + l.authority() + "/o?uploadType=media&name=" + name(l),
          content);
    }

    @Override
    public Answer get(String location) {
      StorageLocation l = StorageLocation.parse(location);
      return send("GET", object(l) + "?alt=media", null);
    }

    @Override
    public Answer list(String location) {
      StorageLocation l = StorageLocation.parse(location);
      String prefix = l.segments().isEmpty() ? "" : "?prefix=" + name(l) + "%2F";
      return send("GET", "/storage/v1/b/" + l.authority() + "/o" + prefix, null);
    }

    @Override
    public Answer delete(String location) {
      return send("DELETE", object(StorageLocation.parse(location)), null);
    }

    private static String object(StorageLocation l) {
      return "/storage/v1/b/" + l.authority() + "/o/" + name(l);
    }

    private static String name(StorageLocation l) {
      return URLEncoder.encode(String.join("/", l.segments()), UTF_8).replace("+", "%20");
    }

    private Answer send(String method, String pathAndQuery, byte[] body) {
      HttpRequest request =
          HttpRequest.newBuilder(URI.create(host + pathAndQuery))
              .header("Authorization", "Bearer " + token)
              .header("Content-Type", "application/octet-stream")
              .method(
                  method,
                  body == null
                      ? HttpRequest.BodyPublishers.noBody()
                      : HttpRequest.BodyPublishers.ofByteArray(body))
              .build();
      try {
        return new Answer(HTTP.send(request, HttpResponse.BodyHandlers.discarding()).statusCode());
      } catch (IOException e) {
        throw new UncheckedIOException(e);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw new IllegalStateException(e);
      }
    }

    @Override
    public void close() {}
  }
}
