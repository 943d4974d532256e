package dev.sluice.vending;

import static java.util.Objects.requireNonNull;

import dev.sluice.location.StorageLocation;
import dev.sluice.testing.CephRgw;
import java.net.URI;
import java.util.Map;
import java.util.function.Consumer;
import java.util.function.IntSupplier;
import software.amazon.awssdk.auth.credentials.AwsSessionCredentials;
import software.amazon.awssdk.auth.credentials.StaticCredentialsProvider;
import software.amazon.awssdk.http.urlconnection.UrlConnectionHttpClient;
import software.amazon.awssdk.regions.Region;
import software.amazon.awssdk.services.s3.S3Client;
import software.amazon.awssdk.services.s3.S3ClientBuilder;
import software.amazon.awssdk.services.s3.model.S3Exception;

/**
 * A contract probe for backends that speak the S3 API (S3, R2): an AWS SDK client built only from a
 * vended credential's Iceberg client properties; the store's answers as HTTP statuses, anything but
 * an S3 answer (a network error) propagates.
 */
public record S3ApiProbe(S3Client s3) implements StorageBackendContract.Probe {
  /**
   * A probe holding only {@code credential}; {@code tune} adjusts the client (checksums, retries).
   */
  public static S3ApiProbe of(StorageCredential credential, Consumer<S3ClientBuilder> tune) {
    Map<String, String> config = credential.config();
    S3ClientBuilder builder =
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
                Boolean.parseBoolean(required(config, ClientProperties.S3_PATH_STYLE_ACCESS)));
    tune.accept(builder);
    return new S3ApiProbe(builder.build());
  }

  private static String required(Map<String, String> config, String key) {
    return requireNonNull(config.get(key), () -> "the vended credential has no " + key);
  }

  public static String bucketOf(String location) {
    return StorageLocation.parse(location).authority();
  }

  public static String keyOf(String location) {
    return String.join("/", StorageLocation.parse(location).segments());
  }

  @Override
  public StorageBackendContract.Answer put(String location, byte[] content) {
    return answer(() -> CephRgw.put(s3, bucketOf(location), keyOf(location), content));
  }

  @Override
  public StorageBackendContract.Answer get(String location) {
    return answer(() -> CephRgw.get(s3, bucketOf(location), keyOf(location)));
  }

  @Override
  public StorageBackendContract.Answer list(String location) {
    String key = keyOf(location);
    return answer(() -> CephRgw.list(s3, bucketOf(location), key.isEmpty() ? null : key + "/"));
  }

  @Override
  public StorageBackendContract.Answer delete(String location) {
    return answer(() -> CephRgw.delete(s3, bucketOf(location), keyOf(location)));
  }

  private static StorageBackendContract.Answer answer(IntSupplier call) {
    try {
      return new StorageBackendContract.Answer(call.getAsInt());
    } catch (S3Exception e) {
      return new StorageBackendContract.Answer(e.statusCode());
    }
  }

  @Override
  public void close() {
    s3.close();
  }
}
