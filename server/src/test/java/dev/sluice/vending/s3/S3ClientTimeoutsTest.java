package dev.sluice.vending.s3;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.sluice.StandardBackends;
import dev.sluice.testing.SilentServer;
import dev.sluice.vending.AccessMode;
import dev.sluice.vending.CredentialSource;
import dev.sluice.vending.StorageTimeouts;
import dev.sluice.vending.VendingException;
import dev.sluice.vending.VendingRequest;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.core.client.config.ClientOverrideConfiguration;
import software.amazon.awssdk.core.exception.SdkException;
import software.amazon.awssdk.services.s3.S3Client;
import software.amazon.awssdk.services.sts.StsClient;

/**
 * The S3 clients Sluice builds keep to the timeouts they are opened with ({@code
 * storage.catalogIoTimeouts} for the catalog's own S3 client, {@code storage.providerTimeouts} for
 * STS): the SDK's override configuration carries them, and against a store or STS that takes the
 * connection and never answers ({@link SilentServer}) a call fails after about the configured
 * bound, well before the default one. Timings are measured with wide margins: the machine may be
 * loaded.
 */
class S3ClientTimeoutsTest {
  private static final ObjectMapper JSON = new ObjectMapper();
  private static final AwsCredentialSource SOURCE =
      AwsCredentialSource.staticKeys("rgw", "AKIDEXAMPLE", "not-a-real-secret");
  private static final Map<String, CredentialSource> SOURCES = Map.of("rgw", SOURCE);

  /** A profile of catalog {@code cat} whose S3 and STS endpoints are {@code endpoint}. */
  private static S3StorageProfile profile(String endpoint) {
    ObjectNode info = JSON.createObjectNode();
    info.put("storageType", "S3");
    info.putArray("allowedLocations").add("s3://bkt/wh");
    info.put("roleArn", "arn:aws:iam::123456789012:role/TableAccess");
    info.put("region", "us-east-1");
    info.put("endpoint", endpoint);
    info.put("stsEndpoint", endpoint);
    info.put("pathStyleAccess", true);
    info.put("credentialSource", "rgw");
    return (S3StorageProfile)
        StandardBackends.create()
            .parse("cat", info, "s3://bkt/wh", SOURCES, S3StorageProfile.MIN_DURATION)
            .profile();
  }

  private static S3Client catalogClient(String endpoint, StorageTimeouts.CatalogIo timeouts) {
    return CatalogS3Client.build("us-east-1", endpoint, true, SOURCE, timeouts);
  }

  @Test
  void theCatalogsS3ClientCarriesItsCatalogIoTimeouts() {
    StorageTimeouts.CatalogIo custom =
        new StorageTimeouts.CatalogIo(Duration.ofMillis(1_500), Duration.ofSeconds(4), 2);
    try (S3Client s3 = catalogClient("http://127.0.0.1:9", custom)) {
      ClientOverrideConfiguration c = s3.serviceClientConfiguration().overrideConfiguration();
      assertThat(c.apiCallAttemptTimeout()).contains(Duration.ofMillis(1_500));
      assertThat(c.apiCallTimeout()).contains(Duration.ofSeconds(4));
      assertThat(c.retryStrategy()).get().extracting(r -> r.maxAttempts()).isEqualTo(2);
    }
    try (S3Client s3 = catalogClient("http://127.0.0.1:9", StorageTimeouts.CatalogIo.DEFAULT)) {
      ClientOverrideConfiguration c = s3.serviceClientConfiguration().overrideConfiguration();
      assertThat(c.apiCallAttemptTimeout()).as("today's").contains(Duration.ofSeconds(5));
      assertThat(c.apiCallTimeout()).contains(Duration.ofSeconds(10));
      assertThat(c.retryStrategy()).get().extracting(r -> r.maxAttempts()).isEqualTo(3);
    }
  }

  @Test
  void theVendorsStsClientCarriesItsProviderTimeouts() {
    StorageTimeouts.Provider custom =
        StorageTimeouts.Provider.of(Duration.ofMillis(1_500), Duration.ofSeconds(4));
    try (StsClient sts =
        StsCredentialVendor.client(profile("http://127.0.0.1:9"), SOURCE, custom)) {
      ClientOverrideConfiguration c = sts.serviceClientConfiguration().overrideConfiguration();
      assertThat(c.apiCallAttemptTimeout()).contains(Duration.ofMillis(1_500));
      assertThat(c.apiCallTimeout()).contains(Duration.ofSeconds(4));
    }
    try (StsClient sts =
        StsCredentialVendor.client(
            profile("http://127.0.0.1:9"), SOURCE, StorageTimeouts.Provider.DEFAULT)) {
      ClientOverrideConfiguration c = sts.serviceClientConfiguration().overrideConfiguration();
      assertThat(c.apiCallAttemptTimeout()).as("today's").contains(Duration.ofSeconds(3));
      assertThat(c.apiCallTimeout()).contains(Duration.ofSeconds(6));
    }
  }

  /**
   * A store that never answers: the catalog's read fails after about the configured 0.8 s call (two
   * attempts of 0.4 s), where the defaults would hold it 10 s.
   */
  @Test
  void aSilentStoreFailsTheCatalogsCallWithinItsConfiguredBound() throws Exception {
    StorageTimeouts.CatalogIo bound =
        new StorageTimeouts.CatalogIo(Duration.ofMillis(400), Duration.ofMillis(800), 3);
    try (SilentServer silent = SilentServer.start();
        S3Client s3 = catalogClient(silent.endpoint(), bound)) {
      long start = System.nanoTime();
      assertThatThrownBy(() -> s3.headObject(b -> b.bucket("bkt").key("wh/metadata/v1.json")))
          .isInstanceOf(SdkException.class);
      Duration took = Duration.ofNanos(System.nanoTime() - start);
      System.out.printf("catalog S3 call on a silent store failed after %d ms%n", took.toMillis());
      assertThat(silent.accepted()).as("connections the store took").isPositive();
      assertThat(took)
          .as("configured call 0.8 s; the default is 10 s")
          .isBetween(Duration.ofMillis(350), Duration.ofSeconds(5));
    }
  }

  /**
   * STS that never answers: the vend fails naming the catalog after about the configured 0.8 s
   * call, where the defaults would take 6 s.
   */
  @Test
  void aSilentStsFailsTheVendWithinItsConfiguredBound() throws Exception {
    StorageTimeouts.Provider bound =
        StorageTimeouts.Provider.of(Duration.ofMillis(400), Duration.ofMillis(800));
    try (SilentServer silent = SilentServer.start();
        StsCredentialVendor vendor =
            new StsCredentialVendor(profile(silent.endpoint()), SOURCE, bound, latency -> {})) {
      TreeMap<String, String> attribution = new TreeMap<>(Map.of("principal", "alice"));
      VendingRequest request =
          new VendingRequest(
              "s3://bkt/wh/ns/t",
              List.of("s3://bkt/wh/ns/t"),
              AccessMode.READ,
              "alice",
              attribution);
      long start = System.nanoTime();
      assertThatThrownBy(() -> vendor.vend(request))
          .isInstanceOf(VendingException.class)
          .hasMessageContaining("catalog cat")
          .hasMessageContaining("STS is unreachable");
      Duration took = Duration.ofNanos(System.nanoTime() - start);
      System.out.printf("STS call on a silent provider failed after %d ms%n", took.toMillis());
      assertThat(silent.accepted()).as("connections STS took").isPositive();
      assertThat(took)
          .as("configured call 0.8 s; the default is 6 s")
          .isBetween(Duration.ofMillis(350), Duration.ofSeconds(4));
    }
  }
}
