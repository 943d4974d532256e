package dev.sluice.vending.s3;

import static java.util.Objects.requireNonNull;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.sluice.location.StorageLocation;
import dev.sluice.testing.CephRgw;
import dev.sluice.vending.ClientProperties;
import dev.sluice.vending.CredentialSource;
import dev.sluice.vending.StorageBackendContract;
import dev.sluice.vending.StorageBackends;
import dev.sluice.vending.StorageCredential;
import java.net.URI;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.IntSupplier;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import software.amazon.awssdk.auth.credentials.AwsSessionCredentials;
import software.amazon.awssdk.auth.credentials.StaticCredentialsProvider;
import software.amazon.awssdk.core.checksums.RequestChecksumCalculation;
import software.amazon.awssdk.core.checksums.ResponseChecksumValidation;
import software.amazon.awssdk.http.urlconnection.UrlConnectionHttpClient;
import software.amazon.awssdk.regions.Region;
import software.amazon.awssdk.services.s3.S3Client;
import software.amazon.awssdk.services.s3.model.S3Exception;

/**
 * The storage backend contract for S3 on the real Ceph RGW with STS (fails, never skips, when the
 * bed is not there): STS AssumeRole with a session policy scoped to the table, one new bucket for
 * the class.
 */
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
    return StorageBackends.standard();
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
    Map<String, String> config = credential.config();
    S3Client s3 =
        S3Client.builder()
            .httpClient(UrlConnectionHttpClient.create())
            .endpointOverride(URI.create(required(config, ClientProperties.S3_ENDPOINT)))
            .region(Region.of(required(config, ClientProperties.CLIENT_REGION)))
            .credentialsProvider(
                StaticCredentialsProvider.create(
                    AwsSessionCredentials.create(
                        required(config, ClientProperties.S3_ACCESS_KEY_ID),
                        required(config, ClientProperties.S3_SECRET_ACCESS_KEY),
                        required(config, ClientProperties.S3_SESSION_TOKEN))))
            .forcePathStyle(
                Boolean.parseBoolean(required(config, ClientProperties.S3_PATH_STYLE_ACCESS)))
            .requestChecksumCalculation(RequestChecksumCalculation.WHEN_REQUIRED)
            .responseChecksumValidation(ResponseChecksumValidation.WHEN_REQUIRED)
            .build();
    return new S3Probe(s3);
  }

  @Override
  protected void adminPut(String location, byte[] content) {
    CephRgw.put(admin, bucketOf(location), keyOf(location), content);
  }

  @Override
  protected Optional<byte[]> adminGet(String location) {
    try {
      return Optional.of(CephRgw.getBytes(admin, bucketOf(location), keyOf(location)));
    } catch (S3Exception e) {
      if (e.statusCode() == 404) {
        return Optional.empty();
      }
      throw e;
    }
  }

  @Override
  protected String metricsTag() {
    return "s3";
  }

  private static String required(Map<String, String> config, String key) {
    return requireNonNull(config.get(key), () -> "the vended credential has no " + key);
  }

  private static String bucketOf(String location) {
    return StorageLocation.parse(location).authority();
  }

  private static String keyOf(String location) {
    return String.join("/", StorageLocation.parse(location).segments());
  }

  /** Store answers as HTTP statuses; anything but an S3 answer (a network error) propagates. */
  private record S3Probe(S3Client s3) implements Probe {
    @Override
    public Answer put(String location, byte[] content) {
      return answer(() -> CephRgw.put(s3, bucketOf(location), keyOf(location), content));
    }

    @Override
    public Answer get(String location) {
      return answer(() -> CephRgw.get(s3, bucketOf(location), keyOf(location)));
    }

    @Override
    public Answer list(String location) {
      String key = keyOf(location);
      return answer(() -> CephRgw.list(s3, bucketOf(location), key.isEmpty() ? null : key + "/"));
    }

    @Override
    public Answer delete(String location) {
      return answer(() -> CephRgw.delete(s3, bucketOf(location), keyOf(location)));
    }

    private static Answer answer(IntSupplier call) {
      try {
        return new Answer(call.getAsInt());
      } catch (S3Exception e) {
        return new Answer(e.statusCode());
      }
    }

    @Override
    public void close() {
      s3.close();
    }
  }
}
