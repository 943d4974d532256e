package dev.sluice.testing;

import static dev.sluice.testing.AzureRefusal.assertForbidden;
import static java.nio.charset.StandardCharsets.UTF_8;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.azure.core.http.jdk.httpclient.JdkHttpClientBuilder;
import com.azure.core.util.BinaryData;
import com.azure.storage.blob.BlobClient;
import com.azure.storage.blob.BlobContainerClient;
import com.azure.storage.blob.BlobContainerClientBuilder;
import com.azure.storage.blob.BlobServiceClient;
import com.azure.storage.blob.BlobServiceClientBuilder;
import com.azure.storage.blob.models.BlobItem;
import com.azure.storage.blob.models.UserDelegationKey;
import com.azure.storage.blob.sas.BlobContainerSasPermission;
import com.azure.storage.blob.sas.BlobSasPermission;
import com.azure.storage.blob.sas.BlobServiceSasSignatureValues;
import com.azure.storage.common.policy.RequestRetryOptions;
import com.azure.storage.common.policy.RetryPolicyType;
import java.security.KeyStore;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import javax.net.ssl.SSLContext;
import javax.net.ssl.TrustManagerFactory;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Proves that Azurite enforces what the Azure vending tests rely on: {@code getUserDelegationKey}
 * only with a valid bearer token over HTTPS, and user-delegation SAS (container and blob) limited
 * to their permissions, scope and lifetime. Directory SAS: see {@link AzuriteDirectorySasTest}.
 */
@NeedsTestBeds
class AzuriteBedTest {
  private static AzuriteBed bed;
  private static BlobServiceClient oauth;

  @BeforeAll
  static void clients() {
    bed = AzuriteBed.bed(); // IllegalStateException (a failure, not a skip) outside test-all.sh
    oauth = bed.oauthClient(bed.tokenCredential());
  }

  static OffsetDateTime now() {
    return OffsetDateTime.now(ZoneOffset.UTC);
  }

  static UserDelegationKey delegationKey() {
    return oauth.getUserDelegationKey(now().minusMinutes(5), now().plusHours(1));
  }

  static String containerSas(String container, String permissions, OffsetDateTime expiry) {
    BlobServiceSasSignatureValues values =
        new BlobServiceSasSignatureValues(expiry, BlobContainerSasPermission.parse(permissions))
            .setStartTime(now().minusMinutes(5));
    return oauth
        .getBlobContainerClient(container)
        .generateUserDelegationSas(values, delegationKey());
  }

  static void put(BlobContainerClient c, String blob, String text) {
    c.getBlobClient(blob).upload(BinaryData.fromString(text), true);
  }

  static String get(BlobContainerClient c, String blob) {
    return c.getBlobClient(blob).downloadContent().toString();
  }

  static List<String> list(BlobContainerClient c) {
    return c.listBlobs().stream().map(BlobItem::getName).collect(Collectors.toList());
  }

  @Test
  void missingVariablesFailNamingTheScript() {
    Map<String, String> env =
        Map.of(
            AzuriteBed.ENDPOINT_ENV, bed.blobEndpoint(),
            AzuriteBed.CERT_ENV, System.getenv(AzuriteBed.CERT_ENV));
    assertThatThrownBy(() -> new AzuriteBed(name -> null))
        .isInstanceOf(IllegalStateException.class)
        .hasMessageContaining(AzuriteBed.ENDPOINT_ENV)
        .hasMessageContaining("scripts/azurite.sh");
    assertThatThrownBy(() -> new AzuriteBed(env::get))
        .isInstanceOf(IllegalStateException.class)
        .hasMessageContaining(AzuriteBed.TRUSTSTORE_ENV);
  }

  @Test
  void envFileArtifactsAreConsistent() {
    assertThat(bed.blobEndpoint()).startsWith("https://127.0.0.1:").endsWith("/devstoreaccount1");
    assertThat(bed.account()).isEqualTo("devstoreaccount1");
    assertThat(bed.truststoreHoldsCa()).as("truststore %s holds the CA", bed.truststore()).isTrue();
  }

  @Test
  void withoutTheAzuriteCaTheTlsHandshakeFails() throws Exception {
    TrustManagerFactory jdkOnly =
        TrustManagerFactory.getInstance(TrustManagerFactory.getDefaultAlgorithm());
    jdkOnly.init((KeyStore) null);
    SSLContext ctx = SSLContext.getInstance("TLS");
    ctx.init(null, jdkOnly.getTrustManagers(), null);
    BlobServiceClient untrusting =
        new BlobServiceClientBuilder()
            .endpoint(bed.blobEndpoint())
            .credential(bed.tokenCredential())
            .httpClient(
                new JdkHttpClientBuilder(java.net.http.HttpClient.newBuilder().sslContext(ctx))
                    .build())
            .retryOptions(new RequestRetryOptions(RetryPolicyType.FIXED, 1, 10, null, null, null))
            .buildClient();

    assertThatThrownBy(() -> untrusting.getUserDelegationKey(now(), now().plusHours(1)))
        .hasStackTraceContaining("SSLHandshakeException");
  }

  @Test
  void userDelegationKeyNeedsAValidBearerToken() {
    UserDelegationKey key = delegationKey();
    assertThat(key.getSignedObjectId()).isEqualTo(bed.tokens().objectId());
    assertThat(key.getSignedTenantId()).isEqualTo(bed.tokens().tenantId());
    assertThat(key.getValue()).isNotBlank();

    BlobServiceClient expired = bed.oauthClient(bed.tokens().expiredCredential());
    AzureRefusal refusal =
        assertForbidden(
            () -> expired.getUserDelegationKey(now(), now().plusHours(1)), "AuthenticationFailed");
    assertThat(refusal.cause().getMessage()).contains("expired");

    // The account key is no way to a delegation key either (Azure: bearer token only).
    assertForbidden(
        () -> bed.adminClient().getUserDelegationKey(now(), now().plusHours(1)),
        "AuthenticationFailed");
  }

  @Test
  void issuerAndAudienceAreChecked() {
    AzuriteTokens t = bed.tokens();
    OffsetDateTime from = now().minusMinutes(1);
    OffsetDateTime to = now().plusHours(1);
    String blobHostAudience = "https://devstoreaccount1.blob.core.windows.net";
    for (String aud : List.of(AzuriteTokens.STORAGE_AUDIENCE, blobHostAudience + "/")) {
      BlobServiceClient ok =
          bed.oauthClient(t.credential(t.v1Issuer(), aud, from.toInstant(), to.toInstant()));
      assertThat(ok.getUserDelegationKey(now(), to).getValue()).as("aud %s", aud).isNotBlank();
    }
    // Entra's v2 issuer, another account's audience, a token not yet valid: refused.
    BlobServiceClient v2 =
        bed.oauthClient(
            t.credential(
                t.v2Issuer(), AzuriteTokens.STORAGE_AUDIENCE, from.toInstant(), to.toInstant()));
    assertThat(assertForbidden(() -> v2.getUserDelegationKey(now(), to)).cause().getMessage())
        .contains("issuer");
    BlobServiceClient otherAccount =
        bed.oauthClient(
            t.credential(
                t.v1Issuer(),
                "https://someoneelse.blob.core.windows.net",
                from.toInstant(),
                to.toInstant()));
    assertThat(
            assertForbidden(() -> otherAccount.getUserDelegationKey(now(), to))
                .cause()
                .getMessage())
        .contains("audience");
    BlobServiceClient early =
        bed.oauthClient(
            t.credential(
                t.v1Issuer(),
                AzuriteTokens.STORAGE_AUDIENCE,
                now().plusMinutes(10).toInstant(),
                to.toInstant()));
    assertForbidden(() -> early.getUserDelegationKey(now(), to), "AuthenticationFailed");
  }

  @Test
  void readListContainerSasReadsAndListsButCannotWriteOrLeave() {
    String container = bed.newContainer("az-rl");
    String other = bed.newContainer("az-other");
    BlobContainerClient admin = bed.adminClient().getBlobContainerClient(container);
    put(admin, "t/data/a.txt", "alpha");
    put(bed.adminClient().getBlobContainerClient(other), "x.txt", "secret");

    String sas = containerSas(container, "rl", now().plusMinutes(30));
    assertThat(sas).contains("sr=c").contains("skoid=").contains("sp=rl");
    BlobContainerClient viaSas = bed.sasContainerClient(container, sas);
    assertThat(get(viaSas, "t/data/a.txt")).isEqualTo("alpha");
    assertThat(list(viaSas)).containsExactly("t/data/a.txt");

    assertForbidden(() -> put(viaSas, "t/data/b.txt", "beta"), "AuthorizationPermissionMismatch");
    assertForbidden(
        () -> viaSas.getBlobClient("t/data/a.txt").delete(), "AuthorizationPermissionMismatch");
    assertThat(list(admin)).containsExactly("t/data/a.txt");
    assertThat(get(admin, "t/data/a.txt")).isEqualTo("alpha");

    BlobContainerClient otherViaSas = bed.sasContainerClient(other, sas);
    assertForbidden(() -> get(otherViaSas, "x.txt"), "AuthorizationFailure");
    assertForbidden(() -> list(otherViaSas), "AuthorizationFailure");
  }

  @Test
  void readWriteContainerSasWritesAndDeletes() {
    String container = bed.newContainer("az-rw");
    BlobContainerClient viaSas =
        bed.sasContainerClient(container, containerSas(container, "racwdl", now().plusMinutes(30)));
    BlobContainerClient admin = bed.adminClient().getBlobContainerClient(container);

    put(viaSas, "t/data/b.txt", "beta");
    assertThat(get(admin, "t/data/b.txt")).isEqualTo("beta");
    put(viaSas, "t/data/b.txt", "beta2"); // overwrite needs w
    assertThat(get(viaSas, "t/data/b.txt")).isEqualTo("beta2");
    viaSas.getBlobClient("t/data/b.txt").delete();
    assertThat(admin.getBlobClient("t/data/b.txt").exists()).isFalse();
  }

  @Test
  void expiredOrTamperedSasIsRefused() {
    String container = bed.newContainer("az-exp");
    put(bed.adminClient().getBlobContainerClient(container), "a.txt", "alpha");

    String expired = containerSas(container, "rl", now().minusMinutes(1));
    assertForbidden(
        () -> get(bed.sasContainerClient(container, expired), "a.txt"), "AuthorizationFailure");

    String readOnly = containerSas(container, "rl", now().plusMinutes(30));
    assertThat(readOnly).contains("sp=rl");
    String widened = readOnly.replace("sp=rl", "sp=racwdl");
    BlobContainerClient tampered = bed.sasContainerClient(container, widened);
    assertForbidden(() -> put(tampered, "b.txt", "beta"), "AuthorizationFailure");
    assertForbidden(() -> get(tampered, "a.txt"), "AuthorizationFailure");
  }

  @Test
  void connectionStringsTheSdkTakes() {
    String container = bed.newContainer("az-cs");
    put(bed.adminClient().getBlobContainerClient(container), "a.txt", "alpha");
    String sas = containerSas(container, "rl", now().plusMinutes(30));

    // Without AccountKey or SharedAccessSignature the SDK refuses the string, even with a SAS set.
    assertThatThrownBy(
            () ->
                new BlobContainerClientBuilder()
                    .connectionString(bed.connectionStringWithoutKey())
                    .containerName(container)
                    .sasToken(sas)
                    .buildClient())
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("Invalid connection string");

    BlobContainerClient viaConnectionString =
        new BlobContainerClientBuilder()
            .connectionString(bed.sasConnectionString(sas))
            .containerName(container)
            .httpClient(bed.httpClient())
            .buildClient();
    assertThat(viaConnectionString.getBlobContainerUrl())
        .isEqualTo(bed.blobEndpoint() + "/" + container);
    assertThat(get(viaConnectionString, "a.txt")).isEqualTo("alpha");
    assertForbidden(
        () -> put(viaConnectionString, "b.txt", "beta"), "AuthorizationPermissionMismatch");
  }

  @Test
  void blobSasWorksOnItsBlobOnly() {
    String container = bed.newContainer("az-blob");
    BlobContainerClient admin = bed.adminClient().getBlobContainerClient(container);
    put(admin, "t/metadata/v1.json", "{}");
    put(admin, "t/metadata/v2.json", "{\"v\":2}");

    BlobServiceSasSignatureValues values =
        new BlobServiceSasSignatureValues(now().plusMinutes(30), BlobSasPermission.parse("rw"))
            .setStartTime(now().minusMinutes(5));
    String sas =
        oauth
            .getBlobContainerClient(container)
            .getBlobClient("t/metadata/v1.json")
            .generateUserDelegationSas(values, delegationKey());
    assertThat(sas).contains("sr=b");

    BlobClient v1 = bed.sasBlobClient(container, "t/metadata/v1.json", sas);
    assertThat(v1.downloadContent().toString()).isEqualTo("{}");
    v1.upload(BinaryData.fromString("{\"v\":1}"), true);
    assertThat(get(admin, "t/metadata/v1.json")).isEqualTo("{\"v\":1}");

    BlobClient v2 = bed.sasBlobClient(container, "t/metadata/v2.json", sas);
    assertForbidden(() -> v2.downloadContent(), "AuthorizationFailure");
    assertForbidden(
        () -> v2.upload(BinaryData.fromBytes("x".getBytes(UTF_8)), true), "AuthorizationFailure");
    assertThat(get(admin, "t/metadata/v2.json")).isEqualTo("{\"v\":2}");
  }
}
