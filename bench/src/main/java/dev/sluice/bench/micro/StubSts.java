package dev.sluice.bench.micro;

import dev.sluice.vending.s3.S3Backend;
import java.time.Duration;
import java.time.Instant;
import software.amazon.awssdk.services.sts.StsClient;
import software.amazon.awssdk.services.sts.model.AssumeRoleRequest;
import software.amazon.awssdk.services.sts.model.AssumeRoleResponse;
import software.amazon.awssdk.services.sts.model.Credentials;

/**
 * An STS that answers AssumeRole at once with the same fixed credential, without network, so the
 * vending benchmark measures Sluice's cache and its own work on a miss, not STS. Plugged in through
 * the S3 backend's STS client factory: a miss still runs everything but the HTTP call (the session
 * policy, the session name, the AssumeRole request, the credential's client properties and the
 * cache insert).
 */
final class StubSts implements StsClient {
  private final AssumeRoleResponse response;

  StubSts(Instant expiration) {
    this.response =
        AssumeRoleResponse.builder()
            .credentials(
                Credentials.builder()
                    .accessKeyId("ASIABENCHMARK0000000")
                    .secretAccessKey("bench-secret-access-key-not-real-000000000")
                    .sessionToken(
                        "bench-session-token-"
                            + "x".repeat(300)) // STS session tokens run to hundreds of bytes
                    .expiration(expiration)
                    .build())
            .build();
  }

  @Override
  public AssumeRoleResponse assumeRole(AssumeRoleRequest request) {
    return response;
  }

  @Override
  public String serviceName() {
    return SERVICE_NAME;
  }

  @Override
  public void close() {}

  /** The S3 backend with this stub instead of STS. */
  static S3Backend backend() {
    return new S3Backend(
        (profile, source, timeouts) -> new StubSts(Instant.now().plus(Duration.ofHours(1))));
  }
}
