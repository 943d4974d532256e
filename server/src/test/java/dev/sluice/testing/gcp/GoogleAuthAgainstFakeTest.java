package dev.sluice.testing.gcp;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.google.api.client.http.GenericUrl;
import com.google.api.client.http.HttpTransport;
import com.google.auth.http.HttpTransportFactory;
import com.google.auth.oauth2.AccessToken;
import com.google.auth.oauth2.CredentialAccessBoundary;
import com.google.auth.oauth2.GoogleCredentials;
import com.google.auth.oauth2.ImpersonatedCredentials;
import com.google.auth.oauth2.ServiceAccountCredentials;
import com.google.cloud.storage.BlobId;
import com.google.cloud.storage.Storage;
import com.google.cloud.storage.StorageException;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.ServiceLoader;
import java.util.Set;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * google-auth-library 1.57.0's own classes against the fake: the JWT grant of a service-account
 * key, DownscopedCredentials through the fake STS, ImpersonatedCredentials through IAM Credentials,
 * all reached through the ServiceLoader transport factory.
 */
class GoogleAuthAgainstFakeTest {
  private static final String VENDOR = "vendor@lakehouse.iam.gserviceaccount.com";
  private static final String READER = "reader@lakehouse.iam.gserviceaccount.com";

  @TempDir Path dir;
  private GoogleCloudFake fake;
  private ServiceAccount vendor;

  @BeforeEach
  void start() throws IOException {
    fake = GoogleCloudFake.start();
    fake.createBucket("lake");
    fake.createBucket("vendor-only");
    vendor = fake.addServiceAccount(VENDOR, "lakehouse", Set.of("lake", "vendor-only"));
    fake.addServiceAccount(READER, "lakehouse", Set.of("lake"));
  }

  @AfterEach
  void stop() {
    fake.close();
  }

  @Test
  void theTransportFactoryIsTheServiceGoogleAuthLoads() {
    assertThat(ServiceLoader.load(HttpTransportFactory.class).findFirst())
        .get()
        .isInstanceOf(FakeGoogleTransportFactory.class);
  }

  @Test
  void aServiceAccountKeyGetsATokenThroughTheJwtGrant() throws IOException {
    AccessToken token = GcpFixtures.source(vendor, dir).refreshAccessToken();

    assertThat(fake.accountOf(token.getTokenValue())).contains(VENDOR);
    assertThat(token.getExpirationTime().toInstant())
        .isBetween(Instant.now().plusSeconds(3500), Instant.now().plusSeconds(3601));
    assertThat(fake.requestLog()).containsExactly("POST /token -> 200");
  }

  @Test
  void aKeyWhosePrivateKeyWasSwappedIsRefused() throws IOException {
    ServiceAccount other =
        fake.addServiceAccount("other@lakehouse.iam.gserviceaccount.com", "lakehouse", Set.of());
    ObjectMapper json = new ObjectMapper();
    ObjectNode key = (ObjectNode) json.readTree(vendor.keyJson());
    key.put("private_key", json.readTree(other.keyJson()).path("private_key").asText());
    GoogleCredentials forged =
        ServiceAccountCredentials.fromStream(new ByteArrayInputStream(json.writeValueAsBytes(key)))
            .createScoped(GcpFixtures.CLOUD_PLATFORM);

    assertThatThrownBy(forged::refreshAccessToken)
        .isInstanceOf(IOException.class)
        .hasMessageContaining("invalid_grant")
        .hasMessageContaining("Invalid JWT Signature");
  }

  @Test
  void downscopedCredentialsExchangeAtTheFakeStsAndFollowTheSourceLifetime() throws IOException {
    fake.setSourceTokenLifetime(Duration.ofMinutes(20));
    GoogleCredentials source = GcpFixtures.source(vendor, dir);
    CredentialAccessBoundary boundary = GcpFixtures.readWrite("lake", "wh/t/");

    AccessToken token = GcpFixtures.downscope(source, boundary);

    assertThat(fake.exchanges())
        .singleElement()
        .satisfies(
            exchange -> {
              assertThat(exchange.subjectAccount()).isEqualTo(VENDOR);
              assertThat(exchange.token()).isEqualTo(token.getTokenValue());
              assertThat(exchange.optionsJson()).contains("\"accessBoundaryRules\"");
              assertThat(exchange.boundary().rules()).hasSize(2);
              assertThat(exchange.boundary().rules().get(0).roles())
                  .containsExactly(
                      "roles/storage.objectViewer", "roles/storage.legacyObjectReader");
              assertThat(exchange.boundary().rules().get(1).roles())
                  .containsExactly("roles/storage.objectUser");
              assertThat(exchange.boundary().rules())
                  .allSatisfy(
                      rule ->
                          assertThat(rule.condition().orElseThrow().expression())
                              .isEqualTo(GcpFixtures.tableCondition("lake", "wh/t/")));
            });
    assertThat(fake.boundaryOf(token.getTokenValue())).isPresent();
    // Google: the downscoped token expires with its source (here 20 minutes, not an hour).
    Instant sourceExpiry = source.getAccessToken().getExpirationTime().toInstant();
    assertThat(token.getExpirationTime().toInstant())
        .isBetween(sourceExpiry.minusSeconds(2), sourceExpiry)
        .isBefore(Instant.now().plusSeconds(1201));
    // google-auth asked sts.googleapis.com; the ServiceLoader transport brought it here.
    assertThat(fake.requestLog()).containsExactly("POST /token -> 200", "POST /v1/token -> 200");
  }

  @Test
  void impersonationWorksWhenAllowedAndTheTokenCarriesTheTargetsIam() throws IOException {
    fake.allowImpersonation(VENDOR, READER);
    ImpersonatedCredentials reader =
        ImpersonatedCredentials.create(
            GcpFixtures.source(vendor, dir),
            READER,
            null,
            List.of(GcpFixtures.CLOUD_PLATFORM),
            900);

    AccessToken token = reader.refreshAccessToken();

    assertThat(fake.accountOf(token.getTokenValue())).contains(READER);
    assertThat(token.getExpirationTime().toInstant())
        .isBetween(Instant.now().plusSeconds(890), Instant.now().plusSeconds(901));
    fake.put("lake", "x", new byte[] {1});
    fake.put("vendor-only", "x", new byte[] {2});
    Storage storage = GcpFixtures.storage(fake, token);
    assertThat(storage.readAllBytes(BlobId.of("lake", "x"))).containsExactly(1);
    // The vendor may read vendor-only; the reader it impersonates may not.
    assertThatThrownBy(() -> storage.readAllBytes(BlobId.of("vendor-only", "x")))
        .isInstanceOf(StorageException.class)
        .satisfies(e -> assertThat(((StorageException) e).getCode()).isEqualTo(403));
    assertThat(fake.refusals())
        .singleElement()
        .satisfies(
            refusal -> {
              assertThat(refusal.account()).isEqualTo(READER);
              assertThat(refusal.reason()).contains("holds no role on bucket vendor-only");
            });
  }

  @Test
  void impersonationIsRefusedWithoutTheTokenCreatorRole() throws IOException {
    ImpersonatedCredentials reader =
        ImpersonatedCredentials.create(
            GcpFixtures.source(vendor, dir),
            READER,
            null,
            List.of(GcpFixtures.CLOUD_PLATFORM),
            900);

    assertThatThrownBy(reader::refreshAccessToken)
        .isInstanceOf(IOException.class)
        .hasMessageContaining("Error requesting access token")
        .cause()
        .hasMessageContaining("403")
        .hasMessageContaining("iam.serviceAccounts.getAccessToken");
  }

  @Test
  void impersonationForMoreThanAnHourIsRefused() throws IOException {
    fake.allowImpersonation(VENDOR, READER);
    ImpersonatedCredentials reader =
        ImpersonatedCredentials.create(
            GcpFixtures.source(vendor, dir),
            READER,
            null,
            List.of(GcpFixtures.CLOUD_PLATFORM),
            3601);

    assertThatThrownBy(reader::refreshAccessToken)
        .isInstanceOf(IOException.class)
        .cause()
        .hasMessageContaining("400")
        .hasMessageContaining("between 1s and 3600s");
  }

  @Test
  void anImpersonatedTokenCanBeDownscopedAndTheExchangeIsTheTargets() throws IOException {
    fake.allowImpersonation(VENDOR, READER);
    ImpersonatedCredentials reader =
        ImpersonatedCredentials.create(
            GcpFixtures.source(vendor, dir),
            READER,
            null,
            List.of(GcpFixtures.CLOUD_PLATFORM),
            600);

    AccessToken token = GcpFixtures.downscope(reader, GcpFixtures.readOnly("lake", "wh/t/"));

    assertThat(fake.exchanges())
        .singleElement()
        .satisfies(
            exchange -> {
              assertThat(exchange.subjectAccount()).isEqualTo(READER);
              assertThat(exchange.token()).isEqualTo(token.getTokenValue());
            });
    assertThat(token.getExpirationTime().toInstant()).isBefore(Instant.now().plusSeconds(601));
  }

  @Test
  void googleHostsOtherThanTheAuthEndpointsAreNeverReached() throws IOException {
    HttpTransport transport = new FakeGoogleTransportFactory().create();

    assertThatThrownBy(
            () ->
                transport
                    .createRequestFactory()
                    .buildGetRequest(
                        new GenericUrl("https://storage.googleapis.com/storage/v1/b/lake/o"))
                    .execute())
        .isInstanceOf(IOException.class)
        .hasMessageContaining("tests never reach Google");
  }

  @Test
  void withoutARunningFakeTheAuthEndpointsAreNotReachedEither() {
    GoogleCloudFake running = fake;
    running.close();
    HttpTransport transport = new FakeGoogleTransportFactory().create();

    assertThatThrownBy(
            () ->
                transport
                    .createRequestFactory()
                    .buildPostRequest(
                        new GenericUrl("https://sts.googleapis.com/v1/token"),
                        new com.google.api.client.http.ByteArrayContent(
                            "application/x-www-form-urlencoded",
                            "grant_type=x".getBytes(StandardCharsets.UTF_8)))
                    .execute())
        .isInstanceOf(IOException.class)
        .hasMessageContaining("no GoogleCloudFake is running");
  }
}
