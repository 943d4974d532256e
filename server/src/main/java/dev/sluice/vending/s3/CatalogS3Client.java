package dev.sluice.vending.s3;

import dev.sluice.vending.CatalogIoTimeouts;
import java.net.URI;
import java.time.Duration;
import org.apache.iceberg.aws.s3.S3FileIO;
import org.apache.iceberg.io.FileIO;
import software.amazon.awssdk.core.checksums.RequestChecksumCalculation;
import software.amazon.awssdk.core.checksums.ResponseChecksumValidation;
import software.amazon.awssdk.http.urlconnection.UrlConnectionHttpClient;
import software.amazon.awssdk.regions.Region;
import software.amazon.awssdk.services.s3.S3Client;
import software.amazon.awssdk.services.s3.S3ClientBuilder;

/**
 * The catalog's own S3 access (metadata files, purge), with its own credential source, never a
 * vended one. Checksums are computed only when required: S3-compatible stores such as Ceph RGW
 * reject the SDK's default flexible checksums (XAmzContentSHA256Mismatch).
 */
public final class CatalogS3Client {
  private CatalogS3Client() {}

  /** A client for an S3 API at {@code endpoint} (null: AWS's regional default). */
  public static S3Client build(
      String region, String endpoint, boolean pathStyle, AwsCredentialSource source) {
    S3ClientBuilder builder =
        S3Client.builder()
            .httpClientBuilder(
                UrlConnectionHttpClient.builder()
                    .connectionTimeout(Duration.ofSeconds(3))
                    .socketTimeout(Duration.ofSeconds(30)))
            // Not 30 s socket timeouts retried three times: see CatalogIoTimeouts.
            .overrideConfiguration(
                c ->
                    c.apiCallAttemptTimeout(CatalogIoTimeouts.ATTEMPT)
                        .apiCallTimeout(CatalogIoTimeouts.CALL))
            .region(Region.of(region))
            .credentialsProvider(source.provider())
            .forcePathStyle(pathStyle)
            .requestChecksumCalculation(RequestChecksumCalculation.WHEN_REQUIRED)
            .responseChecksumValidation(ResponseChecksumValidation.WHEN_REQUIRED);
    if (endpoint != null) {
      builder.endpointOverride(URI.create(endpoint));
    }
    return builder.build();
  }

  /** An Iceberg S3FileIO on such a client. */
  public static FileIO fileIO(
      String region, String endpoint, boolean pathStyle, AwsCredentialSource source) {
    S3Client client = build(region, endpoint, pathStyle, source);
    S3FileIO io = new S3FileIO(() -> client);
    io.initialize(java.util.Map.of());
    return io;
  }
}
