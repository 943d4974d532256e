package dev.sluice.testing;

import static java.util.Objects.requireNonNull;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Set;
import software.amazon.awssdk.http.ContentStreamProvider;
import software.amazon.awssdk.http.SdkHttpMethod;
import software.amazon.awssdk.http.SdkHttpRequest;
import software.amazon.awssdk.http.auth.aws.signer.AwsV4FamilyHttpSigner;
import software.amazon.awssdk.http.auth.aws.signer.AwsV4HttpSigner;
import software.amazon.awssdk.http.auth.spi.signer.SignedRequest;
import software.amazon.awssdk.identity.spi.AwsCredentialsIdentity;

/**
 * Re-issues an allowed request to the Ceph RGW bed under the gateway's own keys: same method, raw
 * path and query, the object-level headers that matter, the decoded body, signed by the AWS SDK
 * signer with the body's SHA-256.
 */
final class RgwForwarder {
  /** Request headers passed on (lower case); everything else, auth included, is dropped. */
  private static final Set<String> REQUEST_HEADERS =
      Set.of(
          "content-type",
          "content-md5",
          "content-disposition",
          "content-language",
          "cache-control",
          "expires",
          "range",
          "if-match",
          "if-none-match",
          "if-modified-since",
          "if-unmodified-since",
          "x-amz-copy-source",
          "x-amz-copy-source-range",
          "x-amz-metadata-directive");

  /** Response headers relayed to the client (lower case). */
  static final Set<String> RESPONSE_HEADERS =
      Set.of(
          "etag",
          "content-length",
          "content-type",
          "content-range",
          "last-modified",
          "accept-ranges",
          "x-amz-request-id");

  /** An upstream answer: status, relayed headers, body (empty for HEAD). */
  record Response(int status, Map<String, String> headers, byte[] body) {}

  private static final AwsV4HttpSigner SIGNER = AwsV4HttpSigner.create();

  private final URI endpoint;
  private final String region;
  private final AwsCredentialsIdentity keys;
  private final HttpClient http =
      HttpClient.newBuilder()
          .version(HttpClient.Version.HTTP_1_1)
          .connectTimeout(Duration.ofSeconds(10))
          .build();

  RgwForwarder(String endpoint, String region, String accessKey, String secretKey) {
    this.endpoint = URI.create(requireNonNull(endpoint, "endpoint"));
    this.region = requireNonNull(region, "region");
    this.keys =
        AwsCredentialsIdentity.create(
            requireNonNull(accessKey, "accessKey"), requireNonNull(secretKey, "secretKey"));
  }

  Response forward(R2Request request, byte[] body) throws IOException, InterruptedException {
    SdkHttpRequest.Builder upstream =
        SdkHttpRequest.builder()
            .method(SdkHttpMethod.fromValue(request.method()))
            .protocol(endpoint.getScheme())
            .host(endpoint.getHost())
            .port(endpoint.getPort())
            .encodedPath(request.rawPath());
    request.query().forEach(upstream::putRawQueryParameter);
    request
        .headers()
        .forEach(
            (name, values) -> {
              if (REQUEST_HEADERS.contains(name) || name.startsWith("x-amz-meta-")) {
                upstream.putHeader(name, values);
              }
            });
    SignedRequest signed =
        SIGNER.sign(
            r ->
                r.identity(keys)
                    .request(upstream.build())
                    .payload(ContentStreamProvider.fromByteArrayUnsafe(body))
                    .putProperty(AwsV4HttpSigner.REGION_NAME, region)
                    .putProperty(AwsV4FamilyHttpSigner.SERVICE_SIGNING_NAME, "s3")
                    .putProperty(AwsV4FamilyHttpSigner.DOUBLE_URL_ENCODE, false)
                    .putProperty(AwsV4FamilyHttpSigner.NORMALIZE_PATH, false)
                    .putProperty(AwsV4FamilyHttpSigner.PAYLOAD_SIGNING_ENABLED, true));
    SdkHttpRequest sdk = signed.request();
    HttpRequest.Builder http =
        HttpRequest.newBuilder(sdk.getUri())
            .timeout(Duration.ofSeconds(60))
            .method(
                request.method(),
                body.length == 0
                    ? HttpRequest.BodyPublishers.noBody()
                    : HttpRequest.BodyPublishers.ofByteArray(body));
    sdk.forEachHeader(
        (name, values) -> {
          if (!name.equalsIgnoreCase("host")) { // java.net.http sets Host itself (same value)
            values.forEach(v -> http.header(name, v));
          }
        });
    HttpResponse<byte[]> response =
        this.http.send(http.build(), HttpResponse.BodyHandlers.ofByteArray());
    Map<String, String> headers = new LinkedHashMap<>();
    response
        .headers()
        .map()
        .forEach(
            (name, values) -> {
              String lower = name.toLowerCase(java.util.Locale.ROOT);
              if (RESPONSE_HEADERS.contains(lower) && !values.isEmpty()) {
                headers.put(lower, values.get(0));
              }
            });
    return new Response(response.statusCode(), headers, response.body());
  }
}
