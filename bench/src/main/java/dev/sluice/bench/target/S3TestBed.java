package dev.sluice.bench.target;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.sluice.bench.catalog.Json;
import java.net.URI;
import software.amazon.awssdk.auth.credentials.AwsBasicCredentials;
import software.amazon.awssdk.auth.credentials.StaticCredentialsProvider;
import software.amazon.awssdk.core.checksums.RequestChecksumCalculation;
import software.amazon.awssdk.core.checksums.ResponseChecksumValidation;
import software.amazon.awssdk.regions.Region;
import software.amazon.awssdk.services.s3.S3Client;
import software.amazon.awssdk.services.s3.model.BucketAlreadyOwnedByYouException;

/**
 * The Ceph RGW that bench/run.sh starts (scripts/ceph-rgw.sh; its {@code CEPH_RGW_*} variables): a
 * bucket for the vended and signing catalogs, and those catalogs' definitions.
 */
public record S3TestBed(
    String endpoint, String region, String accessKey, String secretKey, String roleArn) {
  public static final String BUCKET = "sluice-bench";
  static final String CREDENTIAL_SOURCE = "rgw";

  public static S3TestBed fromEnvironment() {
    String endpoint = System.getenv("CEPH_RGW_ENDPOINT");
    if (endpoint == null || endpoint.isEmpty()) {
      throw new IllegalArgumentException(
          "Targets sluice-vended, sluice-signing and sluice-pg-vended need a Ceph RGW: CEPH_RGW_ENDPOINT and the other CEPH_RGW_* variables of"
              + " scripts/ceph-rgw.sh (bench/run.sh starts one)");
    }
    return new S3TestBed(
        endpoint,
        System.getenv("CEPH_RGW_REGION"),
        System.getenv("CEPH_RGW_ACCESS_KEY"),
        System.getenv("CEPH_RGW_SECRET_KEY"),
        System.getenv("CEPH_RGW_ROLE_ARN"));
  }

  public void createBucket(String bucket) {
    try (S3Client s3 =
        S3Client.builder()
            .endpointOverride(URI.create(endpoint))
            .region(Region.of(region))
            .forcePathStyle(true)
            // RGW Pacific rejects the SDK's default request checksums.
            .requestChecksumCalculation(RequestChecksumCalculation.WHEN_REQUIRED)
            .responseChecksumValidation(ResponseChecksumValidation.WHEN_REQUIRED)
            .credentialsProvider(
                StaticCredentialsProvider.create(AwsBasicCredentials.create(accessKey, secretKey)))
            .build()) {
      s3.createBucket(b -> b.bucket(bucket));
    } catch (BucketAlreadyOwnedByYouException e) {
      // a previous run's bucket on the same test bed
    }
  }

  /**
   * A management-API body for an S3 catalog in {@link #BUCKET} that vends on every load ({@code
   * always}).
   */
  public ObjectNode catalogBody(String name) {
    ObjectNode body = Json.MAPPER.createObjectNode();
    storage(body, name)
        .put("roleArn", roleArn)
        .put("durationSeconds", 3600)
        .put("vendCredentials", "always");
    return body;
  }

  /**
   * A management-API body for an S3 catalog in {@link #BUCKET} that offers remote signing only,
   * each request signed with an STS session of the role under its table's session policy: one
   * AssumeRole per table, principal and access mode, then a cache hit per signature.
   */
  public ObjectNode signingCatalogBody(String name) {
    ObjectNode body = Json.MAPPER.createObjectNode();
    storage(body, name)
        .put("roleArn", roleArn)
        .put("durationSeconds", 3600)
        .putArray("delegation")
        .add("remote-signing");
    return body;
  }

  /** {@code body}'s catalog {@code name} at {@code s3://BUCKET/name}, and its storage config. */
  private ObjectNode storage(ObjectNode body, String name) {
    String base = "s3://" + BUCKET + "/" + name;
    ObjectNode catalog = body.putObject("catalog").put("name", name).put("type", "INTERNAL");
    catalog.putObject("properties").put("default-base-location", base);
    ObjectNode storage =
        catalog
            .putObject("storageConfigInfo")
            .put("storageType", "S3")
            .put("region", region)
            .put("endpoint", endpoint)
            .put("pathStyleAccess", true)
            .put("credentialSource", CREDENTIAL_SOURCE);
    storage.putArray("allowedLocations").add(base);
    return storage;
  }
}
