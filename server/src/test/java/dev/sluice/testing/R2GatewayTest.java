package dev.sluice.testing;

import static dev.sluice.testing.R2GatewayBed.ACCOUNT;
import static dev.sluice.testing.R2GatewayBed.READ_ONLY;
import static dev.sluice.testing.R2GatewayBed.READ_WRITE;
import static dev.sluice.testing.R2GatewayBed.nowSeconds;
import static dev.sluice.testing.R2GatewayBed.randomHex;
import static java.nio.charset.StandardCharsets.UTF_8;
import static org.assertj.core.api.Assertions.assertThat;

import dev.sluice.testing.R2TestCredentials.Claims;
import dev.sluice.testing.R2TestCredentials.Credential;
import java.util.Base64;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.assertj.core.api.ThrowableAssert.ThrowingCallable;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.core.checksums.RequestChecksumCalculation;
import software.amazon.awssdk.services.s3.S3Client;
import software.amazon.awssdk.services.s3.model.ObjectIdentifier;
import software.amazon.awssdk.services.s3.model.S3Object;

/**
 * The R2 gateway's token, signature and scope checks against the real Ceph RGW bed (fails, never
 * skips, without it): credentials from the independent {@link R2TestCredentials} minter, used
 * through a plain AWS SDK S3 client, are honoured exactly within their bucket, prefix and scope;
 * every forged, expired or out-of-scope use is refused by the gateway and leaves the store as it
 * was. Payload modes and S3FileIO: {@link R2GatewayPayloadTest}.
 */
@NeedsTestBeds
class R2GatewayTest {
  private static final byte[] CONTENT = "r2-gateway".getBytes(UTF_8);

  private static R2GatewayBed bed;
  private static String bucket;
  private static String otherBucket;

  private String table; // this test's prefix "<area>/db/t/"
  private String sibling; // "<area>/db/t2/"

  @BeforeAll
  static void start() throws Exception {
    bed = R2GatewayBed.start("r2gw");
    bucket = bed.bucket();
    otherBucket = bed.rgw().newBucket("r2gw-other");
  }

  @AfterAll
  static void stop() {
    if (bed != null) {
      bed.close();
    }
  }

  @BeforeEach
  void area() {
    String area = "a-" + UUID.randomUUID().toString().substring(0, 8);
    table = area + "/db/t/";
    sibling = area + "/db/t2/";
  }

  @Test
  void theTestMinterReproducesTheGoldenVector() {
    String id = "a1b2c3d4e5f60718293a4b5c6d7e8f90";
    Credential c =
        R2TestCredentials.mint(
            Claims.of(
                ACCOUNT, id, "warehouse", READ_ONLY, List.of("db/t/"), 1767225600L, 1767226500L),
            "0f".repeat(32));
    assertThat(c.secretAccessKey())
        .isEqualTo("df14f288bdcf31d133e883f7bc51605295c7cf499c4ee931e73154b0d334fe70");
    assertThat(c.accessKeyId()).isEqualTo(id);
    assertThat(new String(Base64.getDecoder().decode(c.sessionToken()), UTF_8))
        .isEqualTo("jwt/" + c.jwt());
  }

  @Test
  void readOnlyReadsAndListsInsideItsPrefixButCannotWrite() {
    bed.adminPut(table + "x.bin", CONTENT);
    long refusedBefore = bed.gateway().refusals();
    try (S3Client s3 = bed.client(bed.mint(READ_ONLY, List.of(table)))) {
      assertThat(CephRgw.getBytes(s3, bucket, table + "x.bin")).isEqualTo(CONTENT);
      assertThat(s3.headObject(b -> b.bucket(bucket).key(table + "x.bin")).contentLength())
          .isEqualTo(CONTENT.length);
      assertThat(
              s3.getObjectAsBytes(b -> b.bucket(bucket).key(table + "x.bin").range("bytes=3-5"))
                  .asUtf8String())
          .isEqualTo("gat");
      assertThat(keys(s3, table)).containsExactly(table + "x.bin");

      refused(() -> CephRgw.put(s3, bucket, table + "evil.bin", CONTENT), "AccessDenied");
      assertThat(bed.adminGet(table + "evil.bin")).as("object after a refused PUT").isNull();
      refused(() -> CephRgw.put(s3, bucket, table + "x.bin", new byte[] {1}), "AccessDenied");
      refused(() -> CephRgw.delete(s3, bucket, table + "x.bin"), "AccessDenied");
      refused(() -> deleteObjects(s3, table + "x.bin"), "AccessDenied");
      assertThat(bed.adminGet(table + "x.bin")).as("after refused writes").isEqualTo(CONTENT);
    }
    assertThat(bed.gateway().refusals() - refusedBefore).isEqualTo(4);
  }

  @Test
  void readWriteWritesAndDeletesInsideItsPrefix() {
    bed.adminPut(table + "d1.bin", CONTENT);
    bed.adminPut(table + "d2.bin", CONTENT);
    try (S3Client s3 = bed.client(bed.mint(READ_WRITE, List.of(table)))) {
      assertThat(CephRgw.put(s3, bucket, table + "new.bin", CONTENT)).isEqualTo(200);
      assertThat(bed.adminGet(table + "new.bin")).isEqualTo(CONTENT);
      assertThat(CephRgw.getBytes(s3, bucket, table + "new.bin")).isEqualTo(CONTENT);
      assertThat(CephRgw.delete(s3, bucket, table + "new.bin")).isEqualTo(204);
      assertThat(bed.adminGet(table + "new.bin")).as("after DELETE").isNull();
      deleteObjects(s3, table + "d1.bin", table + "d2.bin");
      assertThat(keys(s3, table)).as("after DeleteObjects").isEmpty();
    }
  }

  @Test
  void readWriteStaysInsideItsBucketAndPrefix() {
    bed.adminPut(sibling + "x.bin", CONTENT);
    bed.adminPut(table + "keep.bin", CONTENT);
    CephRgw.put(bed.admin(), otherBucket, table + "x.bin", CONTENT);
    String parent = table.substring(0, table.length() - "t/".length());
    long refusedBefore = bed.gateway().refusals();
    try (S3Client s3 = bed.client(bed.mint(READ_WRITE, List.of(table)))) {
      refused(() -> CephRgw.put(s3, bucket, sibling + "evil.bin", CONTENT), "AccessDenied");
      assertThat(bed.adminGet(sibling + "evil.bin")).isNull();
      refused(() -> CephRgw.get(s3, bucket, sibling + "x.bin"), "AccessDenied");
      refused(() -> CephRgw.list(s3, bucket, sibling), "AccessDenied");
      refused(() -> CephRgw.list(s3, bucket, parent), "AccessDenied");
      refused(() -> CephRgw.list(s3, bucket, null), "AccessDenied");
      refused(() -> CephRgw.delete(s3, bucket, sibling + "x.bin"), "AccessDenied");
      refused(() -> deleteObjects(s3, table + "keep.bin", sibling + "x.bin"), "AccessDenied");
      assertThat(bed.adminGet(sibling + "x.bin")).as("sibling after refused deletes").isNotNull();
      assertThat(bed.adminGet(table + "keep.bin")).as("a bulk delete is refused whole").isNotNull();
      refused(() -> CephRgw.get(s3, otherBucket, table + "x.bin"), "AccessDenied");
      refused(() -> CephRgw.put(s3, otherBucket, table + "y.bin", CONTENT), "AccessDenied");
      assertThat(CephRgw.stored(otherBucket, table + "y.bin")).isEqualTo("absent");
      refused(() -> CephRgw.list(s3, otherBucket, table), "AccessDenied");
      refused(() -> CephRgw.delete(s3, otherBucket, table + "x.bin"), "AccessDenied");
      refused(() -> s3.getObjectAcl(b -> b.bucket(bucket).key(table + "keep.bin")), "AccessDenied");
      refused(() -> CephRgw.get(s3, bucket, table + "../t2/x.bin"), "AccessDenied");
    }
    assertThat(CephRgw.getBytes(bed.admin(), otherBucket, table + "x.bin")).isEqualTo(CONTENT);
    assertThat(bed.gateway().refusals() - refusedBefore).isEqualTo(13);
    assertThat(bed.gateway().refusalLog()).noneMatch(line -> line.contains(bed.parentSecret()));
  }

  @Test
  void forgedTokensAreRefused() {
    bed.adminPut(table + "x.bin", CONTENT);
    Claims claims = bed.claims(READ_ONLY, List.of(table));
    Credential good = R2TestCredentials.mint(claims, bed.parentSecret());
    long now = nowSeconds();
    Map<String, Credential> forged = new LinkedHashMap<>();
    forged.put(
        "widened prefix, MAC kept",
        R2TestCredentials.tampered(good, claims.withPrefixPaths(List.of(""))));
    forged.put(
        "scope raised, MAC kept", R2TestCredentials.tampered(good, claims.withScope(READ_WRITE)));
    forged.put(
        "other bucket, MAC kept", R2TestCredentials.tampered(good, claims.withBucket(otherBucket)));
    forged.put("wrong parent secret", R2TestCredentials.mint(claims, randomHex(32)));
    forged.put(
        "wrong audience",
        R2TestCredentials.mint(
            claims.withAudience(ACCOUNT + ".eu.r2.cloudflarestorage.com"), bed.parentSecret()));
    forged.put(
        "other account",
        R2TestCredentials.mint(
            Claims.of(
                "f".repeat(32),
                bed.parentKeyId(),
                bucket,
                READ_ONLY,
                List.of(table),
                now,
                now + 900),
            bed.parentSecret()));
    forged.forEach(
        (what, credential) -> {
          try (S3Client s3 = bed.client(credential)) {
            refused(() -> CephRgw.get(s3, bucket, table + "x.bin"), "AccessDenied");
            refused(() -> CephRgw.put(s3, bucket, table + "evil.bin", CONTENT), "AccessDenied");
          }
        });
    assertThat(bed.adminGet(table + "evil.bin")).isNull();
    try (S3Client s3 = bed.client(good)) { // the untampered original works
      assertThat(CephRgw.getBytes(s3, bucket, table + "x.bin")).isEqualTo(CONTENT);
    }
  }

  @Test
  void expiredTokensAreRefused() throws Exception {
    bed.adminPut(table + "x.bin", CONTENT);
    long now = nowSeconds();
    Claims expired = bed.claims(READ_WRITE, List.of(table)).withExp(now - 1);
    try (S3Client s3 = bed.client(R2TestCredentials.mint(expired, bed.parentSecret()))) {
      refused(() -> CephRgw.get(s3, bucket, table + "x.bin"), "ExpiredToken");
      refused(() -> CephRgw.put(s3, bucket, table + "evil.bin", CONTENT), "ExpiredToken");
    }
    Credential shortLived = R2TestCredentials.mint(expired.withExp(now + 2), bed.parentSecret());
    try (S3Client s3 = bed.client(shortLived)) {
      assertThat(CephRgw.getBytes(s3, bucket, table + "x.bin")).isEqualTo(CONTENT);
      Thread.sleep(Math.max(0, (now + 2) * 1000 - System.currentTimeMillis()) + 1100);
      refused(() -> CephRgw.get(s3, bucket, table + "x.bin"), "ExpiredToken");
    }
    assertThat(bed.adminGet(table + "evil.bin")).isNull();
  }

  @Test
  void aRequestNotSignedWithTheDerivedSecretIsRefused() {
    Credential good = bed.mint(READ_WRITE, List.of(table));
    Credential wrongSecret =
        new Credential(good.accessKeyId(), randomHex(32), good.sessionToken(), good.jwt());
    Credential parentSecretUsed =
        new Credential(good.accessKeyId(), bed.parentSecret(), good.sessionToken(), good.jwt());
    Credential otherKeyId =
        new Credential(randomHex(16), good.secretAccessKey(), good.sessionToken(), good.jwt());
    for (Credential c : List.of(wrongSecret, parentSecretUsed)) {
      try (S3Client s3 = bed.client(c)) {
        refused(
            () -> CephRgw.put(s3, bucket, table + "evil.bin", CONTENT), "SignatureDoesNotMatch");
        refused(() -> CephRgw.list(s3, bucket, table), "SignatureDoesNotMatch");
      }
    }
    try (S3Client s3 = bed.client(otherKeyId)) {
      refused(() -> CephRgw.put(s3, bucket, table + "evil.bin", CONTENT), "AccessDenied");
    }
    assertThat(bed.adminGet(table + "evil.bin")).isNull();
    try (S3Client s3 = bed.client(good)) { // the same request with the derived secret works
      assertThat(CephRgw.put(s3, bucket, table + "ok.bin", CONTENT)).isEqualTo(200);
    }
  }

  /** R2 accepts the parent API key's own S3 keys (the catalog's I/O); only with its secret. */
  @Test
  void theParentKeyIsAcceptedButADerivedSecretWithoutItsTokenIsNot() {
    bed.adminPut(table + "x.bin", CONTENT);
    long parentBefore = bed.gateway().parentRequests();
    try (S3Client s3 = bed.parentClient()) {
      assertThat(CephRgw.list(s3, bucket, null)).isEqualTo(200);
      assertThat(CephRgw.put(s3, bucket, table + "p.bin", CONTENT)).isEqualTo(200);
      assertThat(CephRgw.getBytes(s3, bucket, table + "x.bin")).isEqualTo(CONTENT);
    }
    assertThat(bed.gateway().parentRequests() - parentBefore).isEqualTo(3);
    Credential vended = bed.mint(READ_WRITE, List.of(table));
    RequestChecksumCalculation checksums = RequestChecksumCalculation.WHEN_REQUIRED;
    try (S3Client s3 =
        bed.client(vended.accessKeyId(), vended.secretAccessKey(), null, checksums)) {
      refused(() -> CephRgw.get(s3, bucket, table + "x.bin"), "SignatureDoesNotMatch");
      refused(() -> CephRgw.put(s3, bucket, table + "evil.bin", CONTENT), "SignatureDoesNotMatch");
    }
    try (S3Client s3 = bed.client(bed.parentKeyId(), randomHex(32), null, checksums)) {
      refused(() -> CephRgw.list(s3, bucket, null), "SignatureDoesNotMatch");
    }
    assertThat(bed.adminGet(table + "evil.bin")).isNull();
  }

  // ---- helpers ----

  private static void refused(ThrowingCallable call, String code) {
    bed.assertRefused(call, code);
  }

  private static List<String> keys(S3Client s3, String prefix) {
    return s3.listObjectsV2(b -> b.bucket(bucket).prefix(prefix)).contents().stream()
        .map(S3Object::key)
        .toList();
  }

  private static void deleteObjects(S3Client s3, String... keys) {
    List<ObjectIdentifier> ids =
        java.util.Arrays.stream(keys).map(k -> ObjectIdentifier.builder().key(k).build()).toList();
    var result = s3.deleteObjects(b -> b.bucket(bucket).delete(d -> d.objects(ids)));
    assertThat(result.errors()).as("DeleteObjects errors").isEmpty();
  }
}
