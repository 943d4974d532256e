package dev.sluice.vending.s3;

import dev.sluice.vending.ClientProperties;
import dev.sluice.vending.StorageCredential;
import dev.sluice.vending.StorageProfile;
import dev.sluice.vending.StoreProbes;
import java.net.URI;
import java.time.Duration;
import java.util.Map;
import java.util.Optional;
import org.apache.iceberg.aws.s3.S3FileIO;
import org.apache.iceberg.io.FileIO;
import software.amazon.awssdk.auth.credentials.AwsSessionCredentials;
import software.amazon.awssdk.auth.credentials.StaticCredentialsProvider;
import software.amazon.awssdk.awscore.exception.AwsServiceException;
import software.amazon.awssdk.core.checksums.RequestChecksumCalculation;
import software.amazon.awssdk.core.checksums.ResponseChecksumValidation;
import software.amazon.awssdk.http.urlconnection.UrlConnectionHttpClient;
import software.amazon.awssdk.regions.Region;
import software.amazon.awssdk.services.s3.S3Client;
import software.amazon.awssdk.services.s3.S3ClientBuilder;

/**
 * The S3 side of the storage self-check: an S3FileIO on a client built only from a vended
 * credential's Iceberg properties, as an engine builds it; refusals read from the HTTP status (Ceph
 * RGW's errors carry no SDK error code, so the status is what counts).
 */
public final class S3Probes implements StoreProbes {
  @Override
  public FileIO open(StorageCredential credential) {
    return engineFileIO(credential);
  }

  /**
   * An S3FileIO on a client built only from {@code credential}'s Iceberg properties (endpoint, path
   * style, region, key pair and session token), as an engine builds it; shared with the other
   * S3-API backends (R2).
   */
  public static FileIO engineFileIO(StorageCredential credential) {
    Map<String, String> config = credential.config();
    S3ClientBuilder builder =
        S3Client.builder()
            .httpClientBuilder(
                UrlConnectionHttpClient.builder()
                    .connectionTimeout(Duration.ofSeconds(3))
                    .socketTimeout(Duration.ofSeconds(30)))
            .region(Region.of(config.get(ClientProperties.CLIENT_REGION)))
            .credentialsProvider(
                StaticCredentialsProvider.create(
                    AwsSessionCredentials.create(
                        config.get(ClientProperties.S3_ACCESS_KEY_ID),
                        config.get(ClientProperties.S3_SECRET_ACCESS_KEY),
                        config.get(ClientProperties.S3_SESSION_TOKEN))))
            .forcePathStyle(Boolean.parseBoolean(config.get(ClientProperties.S3_PATH_STYLE_ACCESS)))
            // As engines on S3-compatible stores must (Ceph RGW refuses flexible checksums).
            .requestChecksumCalculation(RequestChecksumCalculation.WHEN_REQUIRED)
            .responseChecksumValidation(ResponseChecksumValidation.WHEN_REQUIRED);
    String endpoint = config.get(ClientProperties.S3_ENDPOINT);
    if (endpoint != null) {
      builder.endpointOverride(URI.create(endpoint));
    }
    S3Client client = builder.build();
    S3FileIO io = new S3FileIO(() -> client);
    io.initialize(Map.of());
    return io;
  }

  @Override
  public Optional<StoreAnswer> answer(Throwable error) {
    return serviceAnswer(error);
  }

  /** The HTTP status and S3 error code of an SDK service exception; empty for anything else. */
  public static Optional<StoreAnswer> serviceAnswer(Throwable error) {
    if (error instanceof AwsServiceException service) {
      String code =
          service.awsErrorDetails() == null ? null : service.awsErrorDetails().errorCode();
      return Optional.of(new StoreAnswer(service.statusCode(), code));
    }
    return Optional.empty();
  }

  @Override
  public Optional<StorageProfile> withLifetime(StorageProfile profile, int seconds) {
    return Optional.of(((S3StorageProfile) profile).withDuration(seconds));
  }

  @Override
  public String whereToFix(StorageProfile profile) {
    S3StorageProfile s3 = (S3StorageProfile) profile;
    StringBuilder out = new StringBuilder("Where to fix: ");
    if (s3.readTemplate() != null || s3.writeTemplate() != null) {
      out.append(
          "this catalog's own session-policy template (storageConfigInfo.readPolicyTemplate /"
              + " writePolicyTemplate) may grant it: a template must allow objects only under"
              + " {{.KeyPattern}} and listing only of {{.KeyPrefix}}, or be removed to use the"
              + " built-in policy. Otherwise, ");
    }
    out.append(
        "the store did not hold the session to the session policy Sluice sent, so the role's"
            + " own permission policy ("
            + s3.roleArn()
            + ") is the only bound left: narrow it to this catalog's allowed locations "
            + s3.allowedLocations()
            + ". Check the store too: Ceph RGW Pacific (16.x) silently drops a session policy"
            + " it cannot parse and grants the role's full rights.");
    return out.toString();
  }
}
