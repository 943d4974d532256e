package dev.sluice.vending.r2;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.sluice.StandardBackends;
import dev.sluice.testing.CephRgw;
import dev.sluice.testing.NeedsTestBeds;
import dev.sluice.testing.R2GatewayBed;
import dev.sluice.testing.R2TestCredentials;
import dev.sluice.vending.CredentialSource;
import dev.sluice.vending.S3ApiProbe;
import dev.sluice.vending.StorageBackendContract;
import dev.sluice.vending.StorageBackends;
import dev.sluice.vending.StorageCredential;
import dev.sluice.vending.s3.AwsCredentialSource;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.services.s3.model.S3Exception;

/**
 * The storage backend contract for R2, through the loopback {@code R2Gateway} (R2's documented
 * acceptance of temporary credentials, in front of the Ceph RGW bed; fails, never skips, without
 * the bed): the catalog's endpoint is the gateway, {@code accountId} is set explicitly, and each
 * probe is an S3 client built from the vended client properties alone, so the gateway, not Sluice,
 * decides what a credential may touch.
 */
@NeedsTestBeds
class R2BackendContractTest extends StorageBackendContract {
  private static final ObjectMapper JSON = new ObjectMapper();
  private static R2GatewayBed bed;

  @BeforeAll
  static void bed() throws Exception {
    bed = R2GatewayBed.start("r2-contract");
  }

  @AfterAll
  static void closeBed() {
    if (bed != null) {
      bed.close();
    }
  }

  @Override
  protected StorageBackends backends() {
    return StandardBackends.create();
  }

  @Override
  protected Map<String, CredentialSource> sources() {
    return Map.of(
        "r2", AwsCredentialSource.staticKeys("r2", bed.parentKeyId(), bed.parentSecret()));
  }

  @Override
  protected String allowedLocation() {
    return "s3://" + bed.bucket() + "/wh";
  }

  @Override
  protected ObjectNode storageConfigInfo(int lifetimeSeconds) {
    ObjectNode info = JSON.createObjectNode();
    info.put("storageType", "R2");
    info.putArray("allowedLocations").add(allowedLocation());
    info.put("endpoint", bed.gateway().endpoint());
    info.put("accountId", R2GatewayBed.ACCOUNT);
    info.put("credentialSource", "r2");
    info.put("durationSeconds", lifetimeSeconds);
    return info;
  }

  /** Minting is local: once the profile parsed, nothing can fail. */
  @Override
  protected boolean providerCanFail() {
    return false;
  }

  @Override
  protected ObjectNode failingStorageConfigInfo() {
    throw new UnsupportedOperationException("R2 minting has no provider that can fail");
  }

  /** R2 takes any lifetime; the gateway, like R2, checks {@code exp} to the second. */
  @Override
  protected int shortestLifetimeSeconds() {
    return 1;
  }

  /** Key prefixes are literal in R2: nothing inside an allowed area is beyond scoping. */
  @Override
  protected List<String> backendUnsafeLocations(String area) {
    return List.of();
  }

  /** An S3 client from the credential's client properties alone (SDK default checksums). */
  @Override
  protected Probe probe(StorageCredential credential) {
    return S3ApiProbe.of(
        credential, b -> b.overrideConfiguration(o -> o.retryStrategy(r -> r.maxAttempts(1))));
  }

  @Override
  protected void adminPut(String location, byte[] content) {
    CephRgw.put(bed.admin(), S3ApiProbe.bucketOf(location), S3ApiProbe.keyOf(location), content);
  }

  @Override
  protected Optional<byte[]> adminGet(String location) {
    try {
      return Optional.of(
          CephRgw.getBytes(bed.admin(), S3ApiProbe.bucketOf(location), S3ApiProbe.keyOf(location)));
    } catch (S3Exception e) {
      if (e.statusCode() == 404) {
        return Optional.empty();
      }
      throw e;
    }
  }

  @Override
  protected boolean planNamesObjects() {
    return true;
  }

  /** Enough object paths that the session token passes 6 KiB. */
  @Override
  protected int planFilesBeyondObjects() {
    return 80;
  }

  @Override
  protected String metricsTag() {
    return "r2";
  }

  /**
   * Sluice's minter and the test-side one (written from the published algorithm) agree byte for
   * byte on fresh random inputs, not only on the golden vector.
   */
  @Test
  void sluiceMintsWhatTheIndependentMinterMints() {
    for (int i = 0; i < 20; i++) {
      String id = R2GatewayBed.randomHex(16);
      String secret = R2GatewayBed.randomHex(32);
      List<String> prefixes = List.of("wh/" + R2GatewayBed.randomHex(3) + "/", "x \"q\"\\/");
      long iat = 1_700_000_000L + i;
      R2TokenMinter.Minted sluice =
          R2TokenMinter.mint(
              id,
              secret,
              R2GatewayBed.ACCOUNT,
              R2TokenMinter.audience(
                  "https://" + R2GatewayBed.ACCOUNT + ".r2.cloudflarestorage.com"),
              "b-" + i,
              i % 2 == 0 ? R2TokenMinter.Scope.READ_ONLY : R2TokenMinter.Scope.READ_WRITE,
              prefixes,
              iat,
              iat + 900);
      R2TestCredentials.Credential independent =
          R2TestCredentials.mint(
              R2TestCredentials.Claims.of(
                  R2GatewayBed.ACCOUNT,
                  id,
                  "b-" + i,
                  i % 2 == 0 ? R2GatewayBed.READ_ONLY : R2GatewayBed.READ_WRITE,
                  prefixes,
                  iat,
                  iat + 900),
              secret);
      assertThat(sluice.jwt()).isEqualTo(independent.jwt());
      assertThat(sluice.secretAccessKey()).isEqualTo(independent.secretAccessKey());
      assertThat(sluice.sessionToken()).isEqualTo(independent.sessionToken());
      assertThat(sluice.accessKeyId()).isEqualTo(independent.accessKeyId());
    }
  }
}
