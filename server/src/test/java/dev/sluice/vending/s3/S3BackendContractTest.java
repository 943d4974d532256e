package dev.sluice.vending.s3;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.sluice.StandardBackends;
import dev.sluice.testing.CephRgw;
import dev.sluice.testing.NeedsTestBeds;
import dev.sluice.vending.CredentialSource;
import dev.sluice.vending.S3ApiProbe;
import dev.sluice.vending.StorageBackendContract;
import dev.sluice.vending.StorageBackends;
import dev.sluice.vending.StorageCredential;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import software.amazon.awssdk.core.checksums.RequestChecksumCalculation;
import software.amazon.awssdk.core.checksums.ResponseChecksumValidation;
import software.amazon.awssdk.services.s3.S3Client;
import software.amazon.awssdk.services.s3.model.S3Exception;

/**
 * The storage backend contract for S3 on the real Ceph RGW with STS (fails, never skips, when the
 * bed is not there): STS AssumeRole with a session policy scoped to the table, one new bucket for
 * the class.
 */
@NeedsTestBeds
class S3BackendContractTest extends StorageBackendContract {
  private static final ObjectMapper JSON = new ObjectMapper();
  private static CephRgw rgw;
  private static String bucket;
  private static S3Client admin;

  @BeforeAll
  static void bed() {
    rgw = CephRgw.bed(); // IllegalStateException (a failure, not a skip) outside test-all.sh
    bucket = rgw.newBucket("contract");
    admin = rgw.adminClient();
  }

  @AfterAll
  static void closeAdmin() {
    if (admin != null) {
      admin.close();
    }
  }

  @Override
  protected StorageBackends backends() {
    return StandardBackends.create();
  }

  @Override
  protected Map<String, CredentialSource> sources() {
    return Map.of("rgw", AwsCredentialSource.staticKeys("rgw", rgw.accessKey(), rgw.secretKey()));
  }

  @Override
  protected String allowedLocation() {
    return "s3://" + bucket + "/wh";
  }

  @Override
  protected ObjectNode storageConfigInfo(int lifetimeSeconds) {
    ObjectNode info = JSON.createObjectNode();
    info.put("storageType", "S3");
    info.putArray("allowedLocations").add(allowedLocation());
    info.put("roleArn", rgw.roleArn());
    info.put("region", rgw.region());
    info.put("endpoint", rgw.endpoint());
    info.put("pathStyleAccess", true);
    info.put("credentialSource", "rgw");
    info.put("durationSeconds", lifetimeSeconds);
    return info;
  }

  /** STS on a port nothing listens on (the discard port). */
  @Override
  protected ObjectNode failingStorageConfigInfo() {
    return storageConfigInfo(lifetimeSeconds()).put("stsEndpoint", "http://127.0.0.1:9");
  }

  @Override
  protected int shortestLifetimeSeconds() {
    return rgw.stsMinDurationSeconds();
  }

  /** What an IAM session policy cannot express: wildcards, variables, and RGW's quirks. */
  @Override
  protected List<String> backendUnsafeLocations(String area) {
    return List.of(
        area + "/t*", area + "/${aws:username}/t", area + "/t x", area + "/a:b/t", area + "/t$");
  }

  /** An S3 client from the credential's client properties alone (endpoint, region, keys). */
  @Override
  protected Probe probe(StorageCredential credential) {
    return S3ApiProbe.of(
        credential,
        b ->
            b.requestChecksumCalculation(RequestChecksumCalculation.WHEN_REQUIRED)
                .responseChecksumValidation(ResponseChecksumValidation.WHEN_REQUIRED));
  }

  @Override
  protected void adminPut(String location, byte[] content) {
    CephRgw.put(admin, S3ApiProbe.bucketOf(location), S3ApiProbe.keyOf(location), content);
  }

  @Override
  protected Optional<byte[]> adminGet(String location) {
    try {
      return Optional.of(
          CephRgw.getBytes(admin, S3ApiProbe.bucketOf(location), S3ApiProbe.keyOf(location)));
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

  /** 40 object ARNs of about 90 characters each exceed the 2,048-character session policy. */
  @Override
  protected int planFilesBeyondObjects() {
    return 40;
  }

  @Override
  protected String metricsTag() {
    return "s3";
  }
}
