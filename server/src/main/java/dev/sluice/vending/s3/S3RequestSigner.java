package dev.sluice.vending.s3;

import static java.util.Objects.requireNonNull;

import dev.sluice.vending.ClientProperties;
import dev.sluice.vending.CredentialVendor;
import dev.sluice.vending.RequestSigner;
import dev.sluice.vending.RequestTarget;
import dev.sluice.vending.SignedRequest;
import dev.sluice.vending.StorageCredential;
import dev.sluice.vending.StorageRequest;
import java.time.Clock;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import software.amazon.awssdk.auth.credentials.AwsCredentialsProvider;
import software.amazon.awssdk.http.SdkHttpMethod;
import software.amazon.awssdk.http.SdkHttpRequest;
import software.amazon.awssdk.http.auth.aws.signer.AwsV4HttpSigner;
import software.amazon.awssdk.http.auth.spi.signer.HttpSigner;
import software.amazon.awssdk.identity.spi.AwsCredentialsIdentity;
import software.amazon.awssdk.identity.spi.AwsSessionCredentialsIdentity;

/**
 * Remote signing for every S3-API catalog: {@link S3RequestParser} reads what a request would
 * touch, and the AWS SDK's SigV4 signer ({@link AwsV4HttpSigner}) signs it with a scoped identity
 * (an STS session under the table's session policy, or an R2 temporary credential for the table's
 * prefixes), so that what a client adds after signing is refused by the store. Only a profile whose
 * operator accepted it signs as the catalog's credential source. Every signature is dated so that
 * the store's clock-skew window closes {@link SignatureWindow#lifetimeSeconds} after it is made.
 * The payload is never signed ({@code UNSIGNED-PAYLOAD}, as Iceberg's signer client expects), and
 * headers that clients change per attempt are left unsigned and handed back as sent.
 */
final class S3RequestSigner implements RequestSigner {
  /** Sent by the engine but not signed: they change between attempts or on the way. */
  static final Set<String> UNSIGNED_HEADERS =
      Set.of("range", "amz-sdk-invocation-id", "amz-sdk-retry", "amz-sdk-request");

  /** Set by the signer: an engine's own value would contradict the signature's date. */
  private static final String DATE = "x-amz-date";

  private final S3RequestParser parser;
  private final String region;
  private final Optional<CredentialVendor> scoped;
  private final AwsCredentialsProvider catalogIdentity;
  private final String refusal;
  private final Clock signingClock;
  private final AwsV4HttpSigner signer = AwsV4HttpSigner.create();

  private S3RequestSigner(
      S3RequestParser parser,
      String region,
      Optional<CredentialVendor> scoped,
      AwsCredentialsProvider catalogIdentity,
      String refusal,
      SignatureWindow window,
      Clock clock) {
    this.parser = requireNonNull(parser, "parser");
    this.region = requireNonNull(region, "region");
    this.scoped = requireNonNull(scoped, "scoped");
    this.catalogIdentity = catalogIdentity;
    this.refusal = refusal;
    this.signingClock = window.signingClock(requireNonNull(clock, "clock"));
  }

  /** Signs with credentials of {@code vendor}, each confined by the store to one table and mode. */
  static S3RequestSigner scoped(
      S3RequestParser parser,
      String region,
      SignatureWindow window,
      CredentialVendor vendor,
      Clock clock) {
    return new S3RequestSigner(
        parser, region, Optional.of(requireNonNull(vendor, "vendor")), null, null, window, clock);
  }

  /**
   * Signs as the catalog's own identity ({@code keys}): only for a profile that cannot scope and
   * whose operator accepted that the parser is then the only boundary.
   */
  static S3RequestSigner asCatalog(
      S3RequestParser parser,
      String region,
      SignatureWindow window,
      AwsCredentialsProvider keys,
      Clock clock) {
    return new S3RequestSigner(
        parser, region, Optional.empty(), requireNonNull(keys, "keys"), null, window, clock);
  }

  /** Signs nothing: every request is refused with {@code why}. */
  static S3RequestSigner refusing(S3RequestParser parser, String region, String why) {
    return new S3RequestSigner(
        parser,
        region,
        Optional.empty(),
        null,
        requireNonNull(why, "why"),
        SignatureWindow.DEFAULT,
        Clock.systemUTC());
  }

  @Override
  public RequestTarget target(StorageRequest request) {
    if (refusal != null) {
      throw new IllegalArgumentException(refusal);
    }
    return parser.parse(request);
  }

  @Override
  public Optional<CredentialVendor> scopedIdentity() {
    return scoped;
  }

  @Override
  public SignedRequest sign(StorageRequest request, Optional<StorageCredential> identity) {
    AwsCredentialsIdentity credentials = credentials(identity);
    SdkHttpRequest.Builder http =
        SdkHttpRequest.builder()
            .method(SdkHttpMethod.fromValue(request.method()))
            .uri(request.uri());
    Map<String, List<String>> unsigned = new LinkedHashMap<>();
    request
        .headers()
        .forEach(
            (name, values) -> {
              String canonical = SignableHeaders.canonical(name);
              if (UNSIGNED_HEADERS.contains(canonical)) {
                unsigned.put(name, values);
              } else if (!canonical.equals(DATE)) {
                http.putHeader(name, values);
              }
            });
    SdkHttpRequest signed =
        signer
            .sign(
                r ->
                    r.identity(credentials)
                        .request(http.build())
                        .payload(null)
                        .putProperty(HttpSigner.SIGNING_CLOCK, signingClock)
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

  private AwsCredentialsIdentity credentials(Optional<StorageCredential> identity) {
    if (scoped.isPresent()) {
      Map<String, String> config =
          identity
              .orElseThrow(() -> new IllegalStateException("A scoped signer needs its identity"))
              .config();
      String token = config.get(ClientProperties.S3_SESSION_TOKEN);
      String keyId = config.get(ClientProperties.S3_ACCESS_KEY_ID);
      String secret = config.get(ClientProperties.S3_SECRET_ACCESS_KEY);
      return token == null
          ? AwsCredentialsIdentity.create(keyId, secret)
          : AwsSessionCredentialsIdentity.create(keyId, secret, token);
    }
    if (identity.isPresent() || catalogIdentity == null) {
      throw new IllegalStateException("This signer signs only as the catalog");
    }
    return catalogIdentity.resolveCredentials();
  }

  @Override
  public void close() {
    scoped.ifPresent(CredentialVendor::close);
  }
}
