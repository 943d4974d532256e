package dev.sluice.testing;

import static dev.sluice.testing.R2GatewayBed.READ_WRITE;
import static java.nio.charset.StandardCharsets.UTF_8;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.sluice.testing.R2TestCredentials.Credential;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.security.SecureRandom;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.apache.iceberg.aws.s3.S3FileIO;
import org.apache.iceberg.io.FileInfo;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.checksums.DefaultChecksumAlgorithm;
import software.amazon.awssdk.core.checksums.RequestChecksumCalculation;
import software.amazon.awssdk.core.sync.RequestBody;
import software.amazon.awssdk.http.ContentStreamProvider;
import software.amazon.awssdk.http.SdkHttpMethod;
import software.amazon.awssdk.http.SdkHttpRequest;
import software.amazon.awssdk.http.auth.aws.signer.AwsV4FamilyHttpSigner;
import software.amazon.awssdk.http.auth.aws.signer.AwsV4HttpSigner;
import software.amazon.awssdk.http.auth.spi.signer.SignedRequest;
import software.amazon.awssdk.identity.spi.AwsCredentialsIdentity;
import software.amazon.awssdk.services.s3.S3Client;

/**
 * The R2 gateway with every payload mode the AWS SDK sends (signed and unsigned aws-chunked bodies
 * with or without trailing checksums, hex payload hashes, unsigned payloads), multipart uploads,
 * and Iceberg's S3FileIO, against the real Ceph RGW bed; a body changed after signing is refused.
 */
@NeedsTestBeds
class R2GatewayPayloadTest {
  private static final byte[] CONTENT = "r2-payload".getBytes(UTF_8);

  private static R2GatewayBed bed;
  private static String bucket;
  private String table;

  @BeforeAll
  static void start() throws Exception {
    bed = R2GatewayBed.start("r2gw-payload");
    bucket = bed.bucket();
  }

  @AfterAll
  static void stop() {
    if (bed != null) {
      bed.close();
    }
  }

  @BeforeEach
  void area() {
    table = "a-" + UUID.randomUUID().toString().substring(0, 8) + "/db/t/";
  }

  /**
   * WHEN_REQUIRED sends STREAMING-AWS4-HMAC-SHA256-PAYLOAD, WHEN_SUPPORTED the -TRAILER variant
   * with a CRC32 trailer; both round-trip, with a body spanning several chunks.
   */
  @Test
  void putObjectWorksWithAndWithoutTrailingChecksums() {
    Credential rw = bed.mint(READ_WRITE, List.of(table));
    byte[] big = random(300 * 1024);
    for (RequestChecksumCalculation mode : RequestChecksumCalculation.values()) {
      try (S3Client s3 =
          bed.client(rw.accessKeyId(), rw.secretAccessKey(), rw.sessionToken(), mode)) {
        for (byte[] content : List.of(CONTENT, big, new byte[0])) {
          String key = table + mode + "-" + content.length + ".bin";
          assertThat(CephRgw.put(s3, bucket, key, content)).isEqualTo(200);
          assertThat(bed.adminGet(key)).as("%s, %s bytes", mode, content.length).isEqualTo(content);
          assertThat(CephRgw.getBytes(s3, bucket, key)).isEqualTo(content);
          assertThat(CephRgw.delete(s3, bucket, key)).isEqualTo(204);
          assertThat(bed.adminGet(key)).isNull();
        }
      }
    }
  }

  @Test
  void aSignedChunkChangedAfterSigningIsRefused() throws Exception {
    byte[] data = random(300 * 1024); // three chunks of at most 128 KiB
    String key = table + "chunked.bin";
    SignedRequest signed = signChunked(key, data, true);
    assertThat(signed.request().firstMatchingHeader("x-amz-content-sha256"))
        .contains(R2SignatureCheck.STREAMING_SIGNED);
    byte[] body = read(signed.payload().orElseThrow());
    byte[] changed = body.clone();
    changed[body.length / 2] ^= 1; // a data byte of the second chunk
    assertRefusedRaw(send(signed.request(), changed), "chunk");
    assertThat(bed.adminGet(key)).as("object after a refused chunked PUT").isNull();
    assertThat(send(signed.request(), body).statusCode()).isEqualTo(200);
    assertThat(bed.adminGet(key)).isEqualTo(data);
  }

  /** What the SDK sends over HTTPS: unsigned chunks, a CRC32 trailer that must match the data. */
  @Test
  void anUnsignedTrailerPayloadIsCheckedAgainstItsChecksum() throws Exception {
    byte[] data = random(200 * 1024);
    String key = table + "unsigned-trailer.bin";
    SignedRequest signed = signChunked(key, data, false);
    assertThat(signed.request().firstMatchingHeader("x-amz-content-sha256"))
        .contains(R2SignatureCheck.STREAMING_UNSIGNED_TRAILER);
    byte[] body = read(signed.payload().orElseThrow());
    byte[] changed = body.clone();
    changed[body.length / 2] ^= 1;
    assertRefusedRaw(send(signed.request(), changed), "trailer");
    assertThat(bed.adminGet(key)).isNull();
    assertThat(send(signed.request(), body).statusCode()).isEqualTo(200);
    assertThat(bed.adminGet(key)).isEqualTo(data);
  }

  @Test
  void multipartUploadsWorkInsideThePrefixOnly() {
    Credential rw = bed.mint(READ_WRITE, List.of(table));
    String key = table + "multi.bin";
    try (S3Client s3 = bed.client(rw)) {
      String id = s3.createMultipartUpload(b -> b.bucket(bucket).key(key)).uploadId();
      String etag =
          s3.uploadPart(
                  b -> b.bucket(bucket).key(key).uploadId(id).partNumber(1),
                  RequestBody.fromBytes(CONTENT))
              .eTag();
      s3.completeMultipartUpload(
          b ->
              b.bucket(bucket)
                  .key(key)
                  .uploadId(id)
                  .multipartUpload(m -> m.parts(p -> p.partNumber(1).eTag(etag))));
      assertThat(bed.adminGet(key)).isEqualTo(CONTENT);
      String aborted = s3.createMultipartUpload(b -> b.bucket(bucket).key(key + "2")).uploadId();
      s3.abortMultipartUpload(b -> b.bucket(bucket).key(key + "2").uploadId(aborted));
      bed.assertRefused(
          () -> s3.createMultipartUpload(b -> b.bucket(bucket).key("elsewhere/multi.bin")),
          "AccessDenied");
    }
    try (S3Client s3 = bed.client(bed.mint(R2GatewayBed.READ_ONLY, List.of(table)))) {
      bed.assertRefused(
          () -> s3.createMultipartUpload(b -> b.bucket(bucket).key(key + "3")), "AccessDenied");
    }
  }

  /** S3FileIO (the default Apache client, flexible checksums) reads, writes, lists, deletes. */
  @Test
  void s3FileIoWorksThroughTheGateway() throws Exception {
    Credential rw = bed.mint(READ_WRITE, List.of(table));
    S3FileIO io = new S3FileIO();
    io.initialize(
        Map.of(
            "s3.endpoint", bed.gateway().endpoint(),
            "s3.path-style-access", "true",
            "client.region", "auto",
            "s3.access-key-id", rw.accessKeyId(),
            "s3.secret-access-key", rw.secretAccessKey(),
            "s3.session-token", rw.sessionToken()));
    try (io) {
      String dir = "s3://" + bucket + "/" + table + "data/";
      for (String name : List.of("a.bin", "b.bin")) {
        try (OutputStream out = io.newOutputFile(dir + name).createOrOverwrite()) {
          out.write(CONTENT);
        }
      }
      try (InputStream in = io.newInputFile(dir + "a.bin").newStream()) {
        assertThat(in.readAllBytes()).isEqualTo(CONTENT);
      }
      assertThat(io.newInputFile(dir + "b.bin").getLength()).isEqualTo(CONTENT.length);
      List<String> listed = new ArrayList<>();
      for (FileInfo info : io.listPrefix(dir)) {
        listed.add(info.location());
      }
      assertThat(listed).containsExactlyInAnyOrder(dir + "a.bin", dir + "b.bin");
      io.deleteFile(dir + "a.bin");
      io.deleteFiles(List.of(dir + "b.bin"));
      assertThat(bed.adminGet(table + "data/a.bin")).isNull();
      assertThat(bed.adminGet(table + "data/b.bin")).isNull();
      String outside = "s3://" + bucket + "/elsewhere/x.bin";
      long before = bed.gateway().refusals();
      assertThatThrownBy(
              () -> {
                try (OutputStream out = io.newOutputFile(outside).createOrOverwrite()) {
                  out.write(CONTENT);
                }
              })
          .hasStackTraceContaining("Status Code: 403");
      assertThat(bed.gateway().refusals()).isGreaterThan(before);
      assertThat(bed.adminGet("elsewhere/x.bin")).isNull();
    }
  }

  // ---- helpers ----

  private static byte[] random(int size) {
    byte[] data = new byte[size];
    new SecureRandom().nextBytes(data);
    return data;
  }

  /**
   * A PutObject signed test-side with the SDK signer as the S3 client signs it: signed chunks (over
   * HTTP), or unsigned chunks with a CRC32 trailer (as over HTTPS, then sent over HTTP).
   */
  private SignedRequest signChunked(String key, byte[] data, boolean signedChunks) {
    Credential rw = bed.mint(READ_WRITE, List.of(table));
    String scheme = signedChunks ? "http" : "https";
    URI uri =
        URI.create(bed.gateway().endpoint().replace("http", scheme) + "/" + bucket + "/" + key);
    SdkHttpRequest put =
        SdkHttpRequest.builder()
            .method(SdkHttpMethod.PUT)
            .uri(uri)
            .putHeader("Content-Type", "application/octet-stream")
            .putHeader("Content-Length", Integer.toString(data.length))
            .putHeader("x-amz-security-token", rw.sessionToken())
            .build();
    return AwsV4HttpSigner.create()
        .sign(
            r -> {
              r.identity(AwsCredentialsIdentity.create(rw.accessKeyId(), rw.secretAccessKey()))
                  .request(put)
                  .payload(ContentStreamProvider.fromByteArray(data))
                  .putProperty(AwsV4HttpSigner.REGION_NAME, "auto")
                  .putProperty(AwsV4FamilyHttpSigner.SERVICE_SIGNING_NAME, "s3")
                  .putProperty(AwsV4FamilyHttpSigner.CHUNK_ENCODING_ENABLED, true)
                  .putProperty(AwsV4FamilyHttpSigner.PAYLOAD_SIGNING_ENABLED, signedChunks);
              if (!signedChunks) {
                r.putProperty(
                    AwsV4FamilyHttpSigner.CHECKSUM_ALGORITHM, DefaultChecksumAlgorithm.CRC32);
              }
            });
  }

  private static byte[] read(ContentStreamProvider provider) throws Exception {
    try (InputStream in = provider.newStream()) {
      return in.readAllBytes();
    }
  }

  /** Sends a request signed test-side over plain HTTP to the gateway, with {@code body} as is. */
  private static HttpResponse<String> send(SdkHttpRequest signed, byte[] body) throws Exception {
    URI uri = URI.create(signed.getUri().toString().replaceFirst("^https:", "http:"));
    HttpRequest.Builder request =
        HttpRequest.newBuilder(uri)
            .method(signed.method().name(), HttpRequest.BodyPublishers.ofByteArray(body));
    signed.forEachHeader(
        (name, values) -> {
          if (!name.equalsIgnoreCase("host") && !name.equalsIgnoreCase("content-length")) {
            values.forEach(v -> request.header(name, v));
          }
        });
    return HttpClient.newHttpClient().send(request.build(), HttpResponse.BodyHandlers.ofString());
  }

  private static void assertRefusedRaw(HttpResponse<String> response, String reason) {
    assertThat(response.statusCode()).as(response.body()).isEqualTo(403);
    assertThat(response.body()).contains("<Code>SignatureDoesNotMatch</Code>");
    List<String> log = bed.gateway().refusalLog();
    assertThat(log.get(log.size() - 1)).contains(reason);
  }
}
