package dev.sluice.vending.s3;

import static java.util.Objects.requireNonNull;

import dev.sluice.vending.RequestSigner;
import dev.sluice.vending.RequestTarget;
import dev.sluice.vending.SignedRequest;
import dev.sluice.vending.StorageRequest;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import software.amazon.awssdk.auth.credentials.AwsCredentialsProvider;
import software.amazon.awssdk.http.SdkHttpMethod;
import software.amazon.awssdk.http.SdkHttpRequest;
import software.amazon.awssdk.http.auth.aws.signer.AwsV4HttpSigner;
import software.amazon.awssdk.services.sts.StsClient;
import software.amazon.awssdk.services.sts.auth.StsAssumeRoleCredentialsProvider;

/**
 * Remote signing for an S3 catalog: {@link S3RequestParser} reads what a request would touch, and
 * the AWS SDK's SigV4 signer ({@link AwsV4HttpSigner}) signs it with the catalog's identity: the
 * role it assumes when it has one (the session carries the role's own rights; every request is
 * authorized by Sluice before it is signed), else its credential source. The payload is never
 * signed ({@code UNSIGNED-PAYLOAD}, as Iceberg's signer client expects), and headers that clients
 * or proxies change per attempt are left unsigned and handed back as sent.
 */
final class S3RequestSigner implements RequestSigner {
  /** Sent by the engine but not signed: they change between attempts or on the way. */
  static final Set<String> UNSIGNED_HEADERS =
      Set.of("range", "x-amz-date", "amz-sdk-invocation-id", "amz-sdk-retry", "amz-sdk-request");

  private final S3RequestParser parser;
  private final String region;
  private final AwsCredentialsProvider credentials;
  private final AutoCloseable onClose;
  private final AwsV4HttpSigner signer = AwsV4HttpSigner.create();

  S3RequestSigner(S3RequestParser parser, String region, AwsCredentialsProvider credentials) {
    this(parser, region, credentials, () -> {});
  }

  private S3RequestSigner(
      S3RequestParser parser,
      String region,
      AwsCredentialsProvider credentials,
      AutoCloseable onClose) {
    this.parser = requireNonNull(parser, "parser");
    this.region = requireNonNull(region, "region");
    this.credentials = requireNonNull(credentials, "credentials");
    this.onClose = onClose;
  }

  /** The signer of {@code profile}: with the role when it names one and STS is there. */
  static S3RequestSigner open(S3StorageProfile profile, AwsCredentialSource source) {
    S3RequestParser parser =
        new S3RequestParser(profile.region(), profile.endpoint(), profile.pathStyleAccess());
    if (profile.roleArn() == null || profile.stsUnavailable()) {
      return new S3RequestSigner(parser, profile.region(), source.provider());
    }
    // Assumed without a session policy: the role's own rights, since each request is authorized
    // and confined to its table by Sluice before it is signed.
    StsClient sts = StsCredentialVendor.client(profile, source);
    StsAssumeRoleCredentialsProvider role =
        StsAssumeRoleCredentialsProvider.builder()
            .stsClient(sts)
            .refreshRequest(
                r -> {
                  r.roleArn(profile.roleArn())
                      .roleSessionName("sluice-signer")
                      .durationSeconds(profile.durationSeconds());
                  if (profile.externalId() != null) {
                    r.externalId(profile.externalId());
                  }
                })
            .asyncCredentialUpdateEnabled(true)
            .build();
    return new S3RequestSigner(
        parser,
        profile.region(),
        role,
        () -> {
          role.close();
          sts.close();
        });
  }

  @Override
  public RequestTarget target(StorageRequest request) {
    return parser.parse(request);
  }

  @Override
  public SignedRequest sign(StorageRequest request) {
    SdkHttpRequest.Builder http =
        SdkHttpRequest.builder()
            .method(SdkHttpMethod.fromValue(request.method()))
            .uri(request.uri());
    Map<String, List<String>> unsigned = new LinkedHashMap<>();
    request
        .headers()
        .forEach(
            (name, values) -> {
              if (UNSIGNED_HEADERS.contains(name.toLowerCase(Locale.ROOT))) {
                unsigned.put(name, values);
              } else {
                http.putHeader(name, values);
              }
            });
    SdkHttpRequest signed =
        signer
            .sign(
                r ->
                    r.identity(credentials.resolveCredentials())
                        .request(http.build())
                        .payload(null)
                        .putProperty(AwsV4HttpSigner.SERVICE_SIGNING_NAME, "s3")
                        .putProperty(AwsV4HttpSigner.REGION_NAME, region)
                        .putProperty(AwsV4HttpSigner.DOUBLE_URL_ENCODE, false)
                        .putProperty(AwsV4HttpSigner.NORMALIZE_PATH, false)
                        .putProperty(AwsV4HttpSigner.PAYLOAD_SIGNING_ENABLED, false)
                        .putProperty(AwsV4HttpSigner.CHUNK_ENCODING_ENABLED, false))
            .request();
    Map<String, List<String>> headers = new LinkedHashMap<>(signed.headers());
    headers.putAll(unsigned);
    return new SignedRequest(request.uri(), headers);
  }

  @Override
  public void close() {
    try {
      onClose.close();
    } catch (Exception e) {
      // closing an STS client cannot fail in a way a caller could act on
    }
  }
}
