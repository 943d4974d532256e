package dev.sluice.vending.s3;

import static java.util.Objects.requireNonNull;

import dev.sluice.vending.StorageTimeouts;
import java.net.URI;
import java.time.Duration;
import java.util.Map;
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

  /**
   * A client for an S3 API at {@code endpoint} (null: AWS's regional default) whose calls keep to
   * {@code timeouts}: not 30 s socket timeouts retried three times.
   */
  public static S3Client build(
      String region,
      String endpoint,
      boolean pathStyle,
      AwsCredentialSource source,
      StorageTimeouts.CatalogIo timeouts) {
    requireNonNull(timeouts, "timeouts");
    S3ClientBuilder builder =
        S3Client.builder()
            .httpClientBuilder(
                UrlConnectionHttpClient.builder()
                    .connectionTimeout(Duration.ofSeconds(3))
                    // Never shorter than an attempt may take.
                    .socketTimeout(longer(Duration.ofSeconds(30), timeouts.attempt())))
            .overrideConfiguration(
                c ->
                    c.apiCallAttemptTimeout(timeouts.attempt())
                        .apiCallTimeout(timeouts.call())
                        .retryStrategy(b -> b.maxAttempts(timeouts.maxAttempts())))
            .region(Region.of(region))
            .credentialsProvider(requireNonNull(source, "source").provider())
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
      String region,
      String endpoint,
      boolean pathStyle,
      AwsCredentialSource source,
      StorageTimeouts.CatalogIo timeouts) {
    return fileIO(region, endpoint, pathStyle, source, timeouts, Map.of());
  }

  /** As above, with S3FileIO properties (SSE-KMS, access points). */
  public static FileIO fileIO(
      String region,
      String endpoint,
      boolean pathStyle,
      AwsCredentialSource source,
      StorageTimeouts.CatalogIo timeouts,
      Map<String, String> properties) {
    S3Client client = build(region, endpoint, pathStyle, source, timeouts);
    S3FileIO io = new S3FileIO(() -> client);
    io.initialize(properties);
    return io;
  }

  /** The longer of two durations. */
  static Duration longer(Duration a, Duration b) {
    return a.compareTo(b) >= 0 ? a : b;
  }
}
