package dev.sluice.testing;

import static java.util.Objects.requireNonNull;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.security.MessageDigest;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.time.format.DateTimeParseException;
import java.util.Arrays;
import java.util.HexFormat;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import software.amazon.awssdk.checksums.DefaultChecksumAlgorithm;
import software.amazon.awssdk.checksums.spi.ChecksumAlgorithm;
import software.amazon.awssdk.http.ContentStreamProvider;
import software.amazon.awssdk.http.SdkHttpMethod;
import software.amazon.awssdk.http.SdkHttpRequest;
import software.amazon.awssdk.http.auth.aws.signer.AwsV4FamilyHttpSigner;
import software.amazon.awssdk.http.auth.aws.signer.AwsV4HttpSigner;
import software.amazon.awssdk.http.auth.spi.signer.HttpSigner;
import software.amazon.awssdk.http.auth.spi.signer.SignRequest;
import software.amazon.awssdk.http.auth.spi.signer.SignedRequest;
import software.amazon.awssdk.identity.spi.AwsCredentialsIdentity;

/**
 * Verifies a request's SigV4 header signature by re-signing a copy with the AWS SDK's own signer
 * (same signed headers, {@code x-amz-date}, region and payload mode) under the secret derived from
 * the session token, and returns the body with any aws-chunked framing removed.
 *
 * <p>Payload modes (what the SDK v2 S3 client sends over plain HTTP, found by experiment): {@code
 * UNSIGNED-PAYLOAD} (GET, HEAD, DELETE, LIST), a hex SHA-256 (DeleteObjects), {@code
 * STREAMING-AWS4-HMAC-SHA256-PAYLOAD} (PutObject with checksums when required) and {@code
 * STREAMING-AWS4-HMAC-SHA256-PAYLOAD-TRAILER} (PutObject with the default flexible checksums, as
 * S3FileIO sends); {@code STREAMING-UNSIGNED-PAYLOAD-TRAILER} (what it sends over HTTPS) is handled
 * too. For streaming modes the SDK's chunked payload signer re-encodes the decoded body and the
 * result must equal the received body byte for byte, which checks every chunk signature, the
 * trailing checksum and the trailer signature (this assumes the SDK's 128 KiB chunks).
 */
final class R2SignatureCheck {
  static final Duration MAX_SKEW = Duration.ofMinutes(15);
  static final String UNSIGNED = "UNSIGNED-PAYLOAD";
  static final String STREAMING_SIGNED = "STREAMING-AWS4-HMAC-SHA256-PAYLOAD";
  static final String STREAMING_SIGNED_TRAILER = "STREAMING-AWS4-HMAC-SHA256-PAYLOAD-TRAILER";
  static final String STREAMING_UNSIGNED_TRAILER = "STREAMING-UNSIGNED-PAYLOAD-TRAILER";

  private static final Pattern AUTHORIZATION =
      Pattern.compile(
          "AWS4-HMAC-SHA256 Credential=([^/,\\s]+)/(\\d{8})/([^/,\\s]+)/([^/,\\s]+)/aws4_request,"
              + "\\s*SignedHeaders=([a-z0-9;_.-]+),\\s*Signature=([0-9a-f]{64})");
  private static final Pattern HEX_SHA256 = Pattern.compile("[0-9a-f]{64}");
  private static final DateTimeFormatter AMZ_DATE =
      DateTimeFormatter.ofPattern("yyyyMMdd'T'HHmmss'Z'").withZone(ZoneOffset.UTC);
  private static final AwsV4HttpSigner SIGNER = AwsV4HttpSigner.create();

  /** The parts of an {@code Authorization} header. */
  record Authorization(
      String accessKeyId,
      String date,
      String region,
      String service,
      List<String> signedHeaders,
      String signature) {
    static Authorization parse(String header) throws R2Refusal {
      Matcher m = AUTHORIZATION.matcher(header == null ? "" : header.trim());
      if (!m.matches()) {
        throw R2Refusal.accessDenied("no AWS4-HMAC-SHA256 Authorization header");
      }
      return new Authorization(
          m.group(1),
          m.group(2),
          m.group(3),
          m.group(4),
          List.of(m.group(5).split(";")),
          m.group(6));
    }
  }

  private final Clock clock;

  R2SignatureCheck(Clock clock) {
    this.clock = requireNonNull(clock, "clock");
  }

  /**
   * Checks {@code request}'s signature under {@code secret} for access key {@code accessKeyId}
   * (with {@code sessionToken}, the token header must be among the signed ones) and returns its
   * decoded body.
   */
  byte[] verify(R2Request request, String accessKeyId, String secret, boolean sessionToken)
      throws R2Refusal {
    Authorization auth = Authorization.parse(request.header("authorization").orElse(null));
    if (!auth.accessKeyId().equals(accessKeyId)) {
      throw R2Refusal.accessDenied("access key id in the signature is not the parent's");
    }
    if (!auth.service().equals("s3")) {
      throw R2Refusal.signature("credential scope service is " + auth.service());
    }
    Set<String> signed = new TreeSet<>(auth.signedHeaders());
    for (String required : List.of("host", "x-amz-date", "x-amz-content-sha256")) {
      if (!signed.contains(required)) {
        throw R2Refusal.signature("header " + required + " is not signed");
      }
    }
    if (sessionToken && !signed.contains("x-amz-security-token")) {
      throw R2Refusal.signature("the session token is not signed");
    }
    Instant date = amzDate(request, auth);
    String contentSha = request.header("x-amz-content-sha256").orElse("");
    byte[] body = request.body();
    byte[] decoded = decodedBody(request, contentSha);

    SdkHttpRequest.Builder copy = copyOf(request, signed, contentSha);
    SignRequest.Builder<AwsCredentialsIdentity> sign =
        SignRequest.builder(AwsCredentialsIdentity.create(accessKeyId, secret))
            .putProperty(AwsV4HttpSigner.REGION_NAME, auth.region())
            .putProperty(AwsV4FamilyHttpSigner.SERVICE_SIGNING_NAME, "s3")
            .putProperty(AwsV4FamilyHttpSigner.DOUBLE_URL_ENCODE, false)
            .putProperty(AwsV4FamilyHttpSigner.NORMALIZE_PATH, false)
            .putProperty(HttpSigner.SIGNING_CLOCK, Clock.fixed(date, ZoneOffset.UTC));
    boolean streaming = contentSha.startsWith("STREAMING-");
    switch (contentSha) {
      case UNSIGNED -> sign.putProperty(AwsV4FamilyHttpSigner.PAYLOAD_SIGNING_ENABLED, false);
      case STREAMING_SIGNED, STREAMING_SIGNED_TRAILER, STREAMING_UNSIGNED_TRAILER -> {
        boolean signedChunks = !contentSha.equals(STREAMING_UNSIGNED_TRAILER);
        sign.putProperty(AwsV4FamilyHttpSigner.PAYLOAD_SIGNING_ENABLED, signedChunks)
            .putProperty(AwsV4FamilyHttpSigner.CHUNK_ENCODING_ENABLED, true)
            .payload(provider(decoded));
        if (!signedChunks) {
          copy.protocol("https"); // the SDK signs unsigned chunked payloads only over HTTPS
        }
        ChecksumAlgorithm trailer = trailerAlgorithm(request);
        if (trailer != null) {
          sign.putProperty(AwsV4FamilyHttpSigner.CHECKSUM_ALGORITHM, trailer);
          copy.removeHeader("x-amz-trailer"); // the chunked signer adds it back
        }
      }
      default -> {
        if (!HEX_SHA256.matcher(contentSha).matches()) {
          throw R2Refusal.badRequest(
              "InvalidArgument", "x-amz-content-sha256 is neither a hash nor a known mode");
        }
        sign.putProperty(AwsV4FamilyHttpSigner.PAYLOAD_SIGNING_ENABLED, true)
            .payload(provider(body));
      }
    }
    SignedRequest resigned = SIGNER.sign(sign.request(copy.build()).build());
    Authorization expected =
        Authorization.parse(resigned.request().firstMatchingHeader("Authorization").orElse(null));
    if (!expected.signedHeaders().equals(auth.signedHeaders())) {
      throw R2Refusal.signature(
          "signed headers differ: sent "
              + auth.signedHeaders()
              + ", re-signed "
              + expected.signedHeaders());
    }
    if (!MessageDigest.isEqual(
        expected.signature().getBytes(java.nio.charset.StandardCharsets.US_ASCII),
        auth.signature().getBytes(java.nio.charset.StandardCharsets.US_ASCII))) {
      throw R2Refusal.signature("request signature does not match the derived secret");
    }
    if (streaming && !Arrays.equals(readAll(resigned.payload().orElseThrow()), body)) {
      throw R2Refusal.signature("aws-chunked body (chunk signatures or trailer) does not match");
    }
    return decoded;
  }

  private Instant amzDate(R2Request request, Authorization auth) throws R2Refusal {
    String value = request.header("x-amz-date").orElse("");
    Instant date;
    try {
      date = Instant.from(AMZ_DATE.parse(value));
    } catch (DateTimeParseException e) {
      throw R2Refusal.accessDenied("x-amz-date is not yyyyMMddTHHmmssZ");
    }
    if (!value.startsWith(auth.date())) {
      throw R2Refusal.signature("credential scope date differs from x-amz-date");
    }
    if (Duration.between(date, clock.instant()).abs().compareTo(MAX_SKEW) > 0) {
      throw new R2Refusal(403, "RequestTimeTooSkewed", "x-amz-date " + value + " is too far off");
    }
    return date;
  }

  private static byte[] decodedBody(R2Request request, String contentSha) throws R2Refusal {
    if (contentSha.startsWith("STREAMING-")) {
      byte[] decoded = AwsChunked.decode(request.body());
      String declared = request.header("x-amz-decoded-content-length").orElse("");
      if (!declared.equals(Integer.toString(decoded.length))) {
        throw R2Refusal.badRequest(
            "IncompleteBody", "decoded " + decoded.length + " bytes, declared " + declared);
      }
      return decoded;
    }
    if (HEX_SHA256.matcher(contentSha).matches()) {
      String actual = HexFormat.of().formatHex(R2TokenCheck.sha256(request.body()));
      if (!actual.equals(contentSha)) {
        throw R2Refusal.badRequest(
            "XAmzContentSHA256Mismatch", "body hash differs from x-amz-content-sha256");
      }
    }
    return request.body();
  }

  /** The request as the client signed it: its signed headers only, as received. */
  private static SdkHttpRequest.Builder copyOf(
      R2Request request, Set<String> signed, String contentSha) throws R2Refusal {
    String host = request.header("host").orElseThrow(() -> R2Refusal.signature("no Host header"));
    int colon = host.lastIndexOf(':');
    SdkHttpRequest.Builder copy =
        SdkHttpRequest.builder()
            .method(SdkHttpMethod.fromValue(request.method()))
            .protocol("http")
            .host(colon < 0 ? host : host.substring(0, colon))
            .port(colon < 0 ? 80 : Integer.parseInt(host.substring(colon + 1)))
            .encodedPath(request.rawPath());
    request.query().forEach(copy::putRawQueryParameter);
    boolean streaming = contentSha.startsWith("STREAMING-");
    for (Map.Entry<String, List<String>> header : request.headers().entrySet()) {
      String name = header.getKey();
      if (!signed.contains(name)) {
        continue;
      }
      if (streaming && name.equals("content-length")) {
        continue; // the chunked signer recomputes it from the decoded body
      }
      if (streaming && name.equals("content-encoding")) {
        List<String> rest =
            Arrays.stream(String.join(",", header.getValue()).split(","))
                .map(String::trim)
                .filter(v -> !v.equalsIgnoreCase("aws-chunked"))
                .toList();
        if (!rest.isEmpty()) {
          copy.putHeader(name, String.join(",", rest));
        }
        continue; // the chunked signer appends aws-chunked
      }
      copy.putHeader(name, header.getValue());
    }
    return copy;
  }

  /** The trailing checksum algorithm ({@code x-amz-trailer: x-amz-checksum-crc32} gives CRC32). */
  private static ChecksumAlgorithm trailerAlgorithm(R2Request request) throws R2Refusal {
    String trailer = request.header("x-amz-trailer").orElse(null);
    if (trailer == null) {
      return null;
    }
    String id = trailer.trim().toLowerCase(Locale.ROOT).replaceFirst("^x-amz-checksum-", "");
    for (ChecksumAlgorithm algorithm :
        List.of(
            DefaultChecksumAlgorithm.CRC32,
            DefaultChecksumAlgorithm.CRC32C,
            DefaultChecksumAlgorithm.SHA1,
            DefaultChecksumAlgorithm.SHA256)) {
      if (algorithm.algorithmId().equalsIgnoreCase(id)) {
        return algorithm;
      }
    }
    throw R2Refusal.badRequest("InvalidArgument", "unsupported trailer " + trailer);
  }

  private static ContentStreamProvider provider(byte[] bytes) {
    return ContentStreamProvider.fromByteArrayUnsafe(bytes);
  }

  private static byte[] readAll(ContentStreamProvider provider) {
    try (InputStream in = provider.newStream()) {
      return in.readAllBytes();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
