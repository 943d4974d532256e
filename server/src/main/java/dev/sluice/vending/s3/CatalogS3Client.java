package dev.sluice.vending.s3;

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

  public static S3Client build(S3StorageProfile profile, AwsCredentialSource source) {
    S3ClientBuilder builder =
        S3Client.builder()
            .httpClientBuilder(
                UrlConnectionHttpClient.builder()
                    .connectionTimeout(Duration.ofSeconds(3))
                    .socketTimeout(Duration.ofSeconds(30)))
            .region(Region.of(profile.region()))
            .credentialsProvider(source.provider())
            .forcePathStyle(profile.pathStyleAccess())
            .requestChecksumCalculation(RequestChecksumCalculation.WHEN_REQUIRED)
            .responseChecksumValidation(ResponseChecksumValidation.WHEN_REQUIRED);
    if (profile.endpoint() != null) {
      builder.endpointOverride(URI.create(profile.endpoint()));
    }
    return builder.build();
  }

  /** An Iceberg S3FileIO on that client. */
  public static FileIO fileIO(S3StorageProfile profile, AwsCredentialSource source) {
    S3Client client = build(profile, source);
    S3FileIO io = new S3FileIO(() -> client);
    io.initialize(java.util.Map.of());
    return io;
  }
}
