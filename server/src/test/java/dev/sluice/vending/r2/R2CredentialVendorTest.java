package dev.sluice.vending.r2;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.sluice.StandardBackends;
import dev.sluice.vending.AccessMode;
import dev.sluice.vending.ClientProperties;
import dev.sluice.vending.CredentialSource;
import dev.sluice.vending.StorageCredential;
import dev.sluice.vending.VendingException;
import dev.sluice.vending.VendingRequest;
import dev.sluice.vending.s3.AwsCredentialSource;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;

class R2CredentialVendorTest {
  private static final ObjectMapper JSON = new ObjectMapper();
  private static final String ACCOUNT = "0123456789abcdef0123456789abcdef";
  private static final AwsCredentialSource PARENT =
      AwsCredentialSource.staticKeys("r2", "a1b2c3d4e5f60718293a4b5c6d7e8f90", "0f".repeat(32));
  private static final Map<String, CredentialSource> SOURCES = Map.of("r2", PARENT);
  private static final long NOW_MS = 1767225600_000L;

  static ObjectNode info() {
    ObjectNode info = JSON.createObjectNode();
    info.put("storageType", "r2");
    info.putArray("allowedLocations").add("s3://warehouse/db");
    info.put("endpoint", "https://" + ACCOUNT + ".r2.cloudflarestorage.com");
    info.put("credentialSource", "r2");
    return info;
  }

  static R2StorageProfile profile(ObjectNode info) {
    return (R2StorageProfile)
        StandardBackends.create().parse("cat", info, "s3://warehouse/db", SOURCES, 900).profile();
  }

  private final List<Duration> mints = new ArrayList<>();
  private final R2CredentialVendor vendor =
      new R2CredentialVendor(profile(info()), PARENT, () -> NOW_MS, mints::add);

  private static VendingRequest request(AccessMode mode, String... locations) {
    return new VendingRequest(
        locations[0], List.of(locations), mode, "analyst", new TreeMap<>(Map.of("principal", "x")));
  }

  private static String claims(StorageCredential credential) {
    String token =
        new String(
            Base64.getDecoder().decode(credential.config().get(ClientProperties.S3_SESSION_TOKEN)),
            StandardCharsets.UTF_8);
    assertThat(token).startsWith("jwt/");
    String payload = token.substring(4).split("\\.")[1];
    return new String(Base64.getUrlDecoder().decode(payload), StandardCharsets.UTF_8);
  }

  @Test
  void theGoldenVectorThroughTheVendor() {
    StorageCredential credential =
        vendor.vend(request(AccessMode.READ, "s3://warehouse/db/t")).get(0);
    // durationSeconds 900 from iat 1767225600: the golden vector exactly.
    assertThat(credential.config().get(ClientProperties.S3_SECRET_ACCESS_KEY))
        .isEqualTo("df14f288bdcf31d133e883f7bc51605295c7cf499c4ee931e73154b0d334fe70");
    assertThat(credential.expiresAtMs()).isEqualTo(1767226500_000L);
    assertThat(mints).hasSize(1);
  }

  @Test
  void theScopeFollowsTheAccessMode() {
    assertThat(claims(vendor.vend(request(AccessMode.READ, "s3://warehouse/db/t")).get(0)))
        .contains("\"scope\":\"object-read-only\"");
    assertThat(claims(vendor.vend(request(AccessMode.READ_WRITE, "s3://warehouse/db/t")).get(0)))
        .contains("\"scope\":\"object-read-write\"");
  }

  @Test
  void prefixesAreFoldedDeduplicatedAndEndInASlash() {
    StorageCredential credential =
        vendor
            .vend(
                request(
                    AccessMode.READ,
                    "s3://warehouse/db/t",
                    "s3://warehouse/db/t/data",
                    "s3://warehouse/db/t_meta",
                    "s3://warehouse/db/t_meta/"))
            .get(0);
    assertThat(claims(credential))
        .contains("\"paths\":{\"prefixPaths\":[\"db/t/\",\"db/t_meta/\"],\"objectPaths\":[]}");
  }

  @Test
  void aTableItCannotScopeIsNeverGivenABucketWideCredential() {
    assertThat(vendor.unscopable(List.of("s3://warehouse"))).get().asString().contains("root");
    assertThat(vendor.unscopable(List.of("s3://warehouse/db/t", "s3://other/x")))
        .get()
        .asString()
        .contains("one bucket");
    assertThat(vendor.unscopable(List.of("s3://warehouse/db/t", "s3://warehouse/db/u"))).isEmpty();
    assertThatThrownBy(() -> vendor.vend(request(AccessMode.READ, "s3://warehouse")))
        .isInstanceOf(VendingException.class);
    assertThat(mints).isEmpty();
  }

  @Test
  void onlyIcebergsS3PropertiesReachTheClient() {
    StorageCredential credential =
        vendor.vend(request(AccessMode.READ_WRITE, "s3://warehouse/db/t")).get(0);
    assertThat(credential.prefix()).isEqualTo("s3://warehouse/db/t");
    assertThat(credential.config().keySet())
        .containsExactlyInAnyOrder(
            "s3.access-key-id",
            "s3.secret-access-key",
            "s3.session-token",
            "s3.session-token-expires-at-ms",
            "s3.endpoint",
            "client.region",
            "s3.path-style-access");
    assertThat(credential.config().get("client.region")).isEqualTo("auto");
    assertThat(credential.config().get("s3.access-key-id")).isEqualTo(PARENT.accessKeyId());
    assertThat(String.join(" ", credential.config().values()))
        .doesNotContain(PARENT.secretAccessKey())
        .doesNotContain("cat")
        .doesNotContain("analyst");
  }

  @Test
  void theCacheKeyIgnoresWhoAsks() {
    VendingRequest a = request(AccessMode.READ, "s3://warehouse/db/t");
    VendingRequest b =
        new VendingRequest(
            a.tableLocation(),
            a.locations(),
            a.mode(),
            "someone-else",
            new TreeMap<>(Map.of("principal", "y")));
    assertThat(vendor.cacheKey(a)).isEqualTo(vendor.cacheKey(b));
    assertThat(vendor.cacheKey(a))
        .isNotEqualTo(vendor.cacheKey(request(AccessMode.READ_WRITE, "s3://warehouse/db/t")));
  }

  @Test
  void profileMistakesNameTheirKey() {
    ObjectNode noEndpoint = info();
    noEndpoint.remove("endpoint");
    assertThatThrownBy(() -> profile(noEndpoint))
        .hasMessageContaining("storageConfigInfo.endpoint");
    ObjectNode loopback = info().put("endpoint", "http://127.0.0.1:9000");
    assertThatThrownBy(() -> profile(loopback)).hasMessageContaining("storageConfigInfo.accountId");
    assertThat(profile(loopback.put("accountId", ACCOUNT)).accountId()).isEqualTo(ACCOUNT);
    assertThatThrownBy(() -> profile(info().put("accountId", "not-an-account")))
        .hasMessageContaining("storageConfigInfo.accountId");
    assertThatThrownBy(() -> profile(info().put("durationSeconds", 604_801)))
        .hasMessageContaining("storageConfigInfo.durationSeconds");
    assertThatThrownBy(() -> profile(info().put("durationSeconds", 60)))
        .hasMessageContaining("storageConfigInfo.durationSeconds");
    ObjectNode noSource = info();
    noSource.remove("credentialSource");
    assertThatThrownBy(() -> profile(noSource))
        .hasMessageContaining("storageConfigInfo.credentialSource");
    ObjectNode gs = info();
    gs.putArray("allowedLocations").add("gs://warehouse/db");
    assertThatThrownBy(() -> profile(gs))
        .hasMessageContaining("storageConfigInfo.allowedLocations");
    assertThat(profile(info()).accountId()).isEqualTo(ACCOUNT);
    assertThat(profile(info()).durationSeconds()).isEqualTo(900);
    assertThat(profile(info()).offered())
        .isEqualTo(Set.of(dev.sluice.vending.Delegation.Kind.VENDED_CREDENTIALS));
  }

  @Test
  void tablesAtABucketRootOrAcrossBucketsAreRefusedNamingTheProperty() {
    R2StorageProfile profile = profile(info());
    assertThat(profile.unusableLocations("s3://warehouse/db/t", Map.of())).isEmpty();
    assertThat(profile.unusableLocations("s3://warehouse", Map.of()))
        .get()
        .asString()
        .startsWith("location");
    assertThat(
            profile.unusableLocations(
                "s3://warehouse/db/t", Map.of("write.data.path", "s3://other/data")))
        .get()
        .asString()
        .startsWith("write.data.path");
    assertThat(
            profile.unusableLocations(
                "s3://warehouse/db/t", Map.of("write.metadata.path", "s3://warehouse")))
        .get()
        .asString()
        .startsWith("write.metadata.path");
  }
}
