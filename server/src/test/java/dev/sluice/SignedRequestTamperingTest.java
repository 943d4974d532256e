package dev.sluice;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.sluice.testing.Admin;
import dev.sluice.testing.CephRgw;
import dev.sluice.testing.NeedsTestBeds;
import dev.sluice.testing.RgwVendingBed;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;
import software.amazon.awssdk.services.s3.S3Client;
import software.amazon.awssdk.services.s3.model.Grant;
import software.amazon.awssdk.services.s3.model.NoSuchKeyException;
import software.amazon.awssdk.services.s3.model.S3Exception;

/**
 * What a client can do with a signature Sluice made, on the real Ceph RGW, once it adds what no
 * parser sees: headers sent unsigned after signing (SigV4 cannot forbid them, and RGW 16 acts on
 * them), in the spellings RGW reads CGI-style ({@code x_amz_copy_source}, {@code X_AMZ_ACL}).
 * Sluice signs every request with an STS session under the table's own session policy, so RGW
 * itself refuses each attack; afterwards the victims' contents, the table's objects and their ACLs,
 * and the bucket's policy are checked on RGW, with the bed's admin keys.
 *
 * <p>The principal holds TABLE_WRITE_DATA on {@code sales.t} only. Victims: a sibling table's
 * object, another namespace's, and an object in another bucket. Also: a signature stops working
 * {@code signatureLifetimeSeconds} after it was made, so one signed before a revoke is refused by
 * RGW once that bound has passed.
 */
@NeedsTestBeds
class SignedRequestTamperingTest {
  private static final ObjectMapper JSON = new ObjectMapper();
  private static final HttpClient HTTP = HttpClient.newHttpClient();
  private static final String CATALOG = "tamper";
  private static final String LAPSING = "lapsing";
  private static final String ALL_USERS = "uri=\"http://acs.amazonaws.com/groups/global/AllUsers\"";

  /** What the table's own objects hold. */
  private static final byte[] OWN = "own".getBytes(StandardCharsets.UTF_8);

  private static RgwVendingBed bed;
  private static S3Client admin;
  private static String otherBucket;
  private static String token;
  private static String table;
  private static final Map<String, String> VICTIMS = new LinkedHashMap<>();

  @BeforeAll
  static void start() throws Exception {
    bed = RgwVendingBed.start("sluice-tamper");
    admin = bed.rgw().adminClient();
    bed.createCatalog(
        CATALOG, "wh", "wh", Map.of(), Map.of("delegation", List.of("remote-signing")));
    bed.createCatalog(
        LAPSING,
        "lapse",
        "lapse",
        Map.of(),
        Map.of("delegation", List.of("remote-signing"), "signatureLifetimeSeconds", 3));
    for (String catalog : List.of(CATALOG, LAPSING)) {
      bed.createNamespace(catalog, "sales");
      bed.createTable(catalog, "sales", "t");
    }
    bed.createNamespace(CATALOG, "hr");
    bed.createTable(CATALOG, "sales", "other");
    bed.createTable(CATALOG, "hr", "secret");
    table = bed.tableKey(CATALOG, "sales", "t");

    Admin access = bed.admin();
    String[] writer = access.principal("writer", "writers");
    for (String catalog : List.of(CATALOG, LAPSING)) {
      access.catalogRole(catalog, "writer_cr", "writers");
      access.grant(catalog, "writer_cr", tableGrant());
    }
    token = bed.server().token(writer[0], writer[1]);

    otherBucket = bed.rgw().newBucket("sluice-tamper-other");
    VICTIMS.put("the sibling table", bed.bucket() + "/" + bed.tableKey(CATALOG, "sales", "other"));
    VICTIMS.put("another namespace", bed.bucket() + "/" + bed.tableKey(CATALOG, "hr", "secret"));
    VICTIMS.put("another bucket", otherBucket + "/wh/sales/t/");
    VICTIMS.forEach(
        (what, prefix) -> {
          int slash = prefix.indexOf('/');
          CephRgw.put(
              admin, prefix.substring(0, slash), prefix.substring(slash + 1) + "v.bin", of(what));
        });
    CephRgw.put(admin, bed.bucket(), table + "data/own.bin", OWN);
  }

  @AfterAll
  static void stop() throws Exception {
    bed.close();
  }

  /** An attack: headers added to a signed PUT of an object of {@code sales.t} when it is sent. */
  record Attack(String name, Map<String, String> added) {
    @Override
    public String toString() {
      return name;
    }
  }

  static Stream<Attack> attacks() {
    Stream.Builder<Attack> attacks = Stream.builder();
    for (String spelling : List.of("x-amz-copy-source", "x_amz_copy_source", "X-AMZ_COPY-SOURCE")) {
      VICTIMS.forEach(
          (what, prefix) ->
              attacks.add(
                  new Attack(
                      "copy from " + what + " (" + spelling + ")",
                      Map.of(spelling, "/" + prefix + "v.bin"))));
    }
    for (String spelling : List.of("x-amz-acl", "X_AMZ_ACL", "x-amz_acl")) {
      for (String acl : List.of("public-read", "public-read-write", "authenticated-read")) {
        attacks.add(new Attack(spelling + ": " + acl, Map.of(spelling, acl)));
      }
    }
    for (String grant : List.of("read", "write", "read-acp", "write-acp", "full-control")) {
      attacks.add(new Attack("x-amz-grant-" + grant, Map.of("x-amz-grant-" + grant, ALL_USERS)));
      attacks.add(
          new Attack(
              "x_amz_grant_" + grant.replace('-', '_'),
              Map.of("x_amz_grant_" + grant.replace('-', '_'), ALL_USERS)));
    }
    return attacks.build();
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("attacks")
  void aHeaderAddedAfterSigningIsRefusedByRgw(Attack attack) throws Exception {
    String key = table + "data/" + UUID.randomUUID() + ".bin";
    JsonNode signed = sign(CATALOG, "PUT", objectUri(bed.bucket(), key), Map.of());
    assertThat(signed.get("headers").fieldNames())
        .toIterable()
        .as("signed with a session, not the catalog's keys")
        .anyMatch(name -> name.equalsIgnoreCase("x-amz-security-token"));
    boolean copy = attack.added().keySet().stream().anyMatch(h -> h.toLowerCase().contains("copy"));
    int status = send(signed, "PUT", attack.added(), copy ? null : OWN);

    assertThat(status).as("RGW's answer").isEqualTo(403);
    assertThat(exists(bed.bucket(), key)).as("%s stored", key).isFalse();
    assertVictimsIntact();
  }

  @Test
  void theSameSignedPutWithoutAddedHeadersIsStoredPrivate() throws Exception {
    String key = table + "data/" + UUID.randomUUID() + ".bin";
    JsonNode signed = sign(CATALOG, "PUT", objectUri(bed.bucket(), key), Map.of());
    assertThat(send(signed, "PUT", Map.of(), OWN)).isEqualTo(200);
    assertThat(CephRgw.getBytes(admin, bed.bucket(), key)).isEqualTo(OWN);
    assertThat(publicGrants(bed.bucket(), key)).isEmpty();
    assertThat(anonymousGet(bed.bucket(), key)).isEqualTo(403);
    // A copy inside the table's own prefix is what a vended credential could do as well.
    String copied = table + "data/" + UUID.randomUUID() + ".bin";
    JsonNode copy = sign(CATALOG, "PUT", objectUri(bed.bucket(), copied), Map.of());
    assertThat(send(copy, "PUT", Map.of("x-amz-copy-source", "/" + bed.bucket() + "/" + key), null))
        .isEqualTo(200);
    assertThat(CephRgw.getBytes(admin, bed.bucket(), copied)).isEqualTo(OWN);
  }

  @Test
  void aSignedGetCannotReadAnotherTablesObjectWithAddedHeaders() throws Exception {
    JsonNode signed =
        sign(CATALOG, "GET", objectUri(bed.bucket(), table + "data/own.bin"), Map.of());
    assertThat(send(signed, "GET", Map.of(), null)).isEqualTo(200);
    for (String prefix : VICTIMS.values()) {
      int slash = prefix.indexOf('/');
      URI victim = URI.create(objectUri(prefix.substring(0, slash), prefix.substring(slash + 1)));
      assertThat(sendTo(victim.toString() + "v.bin", signed, "GET", Map.of(), null))
          .as("%s with the signature of another key", prefix)
          .isEqualTo(403);
    }
  }

  @Test
  void multipartUploadsKeepThePartsOfTheTableAndIgnoreAnAddedPublicAcl() throws Exception {
    // Ceph RGW 16 checks no ACL condition when a multipart upload starts (neither does it for a
    // vended credential): the operator's IgnorePublicAcls on the bucket keeps such an object
    // private, as docs/S3-VENDING.md says.
    admin.putPublicAccessBlock(
        b -> b.bucket(bed.bucket()).publicAccessBlockConfiguration(c -> c.ignorePublicAcls(true)));
    try {
      String key = table + "data/" + UUID.randomUUID() + ".bin";
      String uri = objectUri(bed.bucket(), key);
      JsonNode start = sign(CATALOG, "POST", uri + "?uploads", Map.of());
      HttpResponse<String> started =
          exchange(
              start.get("uri").asText(), start, "POST", Map.of("x-amz-acl", "public-read"), null);
      assertThat(started.statusCode()).as(started.body()).isEqualTo(200);
      Matcher id = Pattern.compile("<UploadId>([^<]+)</UploadId>").matcher(started.body());
      assertThat(id.find()).isTrue();
      String uploadId = id.group(1);
      JsonNode part = sign(CATALOG, "PUT", uri + "?partNumber=1&uploadId=" + uploadId, Map.of());
      HttpResponse<String> uploaded =
          exchange(part.get("uri").asText(), part, "PUT", Map.of(), OWN);
      assertThat(uploaded.statusCode()).isEqualTo(200);
      String etag = uploaded.headers().firstValue("ETag").orElseThrow();
      // A part copied from another table is refused by RGW.
      JsonNode copyPart =
          sign(CATALOG, "PUT", uri + "?partNumber=2&uploadId=" + uploadId, Map.of());
      String victim = VICTIMS.get("the sibling table") + "v.bin";
      assertThat(send(copyPart, "PUT", Map.of("x-amz-copy-source", "/" + victim), null))
          .isEqualTo(403);
      String complete =
          "<CompleteMultipartUpload><Part><PartNumber>1</PartNumber><ETag>"
              + etag
              + "</ETag></Part></CompleteMultipartUpload>";
      JsonNode done = sign(CATALOG, "POST", uri + "?uploadId=" + uploadId, Map.of());
      HttpResponse<String> completed =
          exchange(
              done.get("uri").asText(),
              done,
              "POST",
              Map.of(),
              complete.getBytes(StandardCharsets.UTF_8));
      assertThat(completed.statusCode()).as(completed.body()).isEqualTo(200);
      assertThat(CephRgw.getBytes(admin, bed.bucket(), key)).isEqualTo(OWN);
      assertThat(anonymousGet(bed.bucket(), key)).isEqualTo(403);
    } finally {
      admin.deletePublicAccessBlock(b -> b.bucket(bed.bucket()));
    }
    assertVictimsIntact();
  }

  @Test
  void aSignatureIsDatedSoThatRgwClosesItsWindowThirtySecondsLater() throws Exception {
    Instant before = Instant.now();
    JsonNode signed =
        sign(CATALOG, "GET", objectUri(bed.bucket(), table + "data/own.bin"), Map.of());
    Instant dated =
        DateTimeFormatter.ofPattern("yyyyMMdd'T'HHmmss'Z'", Locale.ROOT)
            .withZone(ZoneOffset.UTC)
            .parse(signed.at("/headers/X-Amz-Date/0").asText(), Instant::from);
    // RGW accepts a date within 900 s of its clock: dated 870 s back, it has 30 s left.
    long left = Duration.between(before, dated.plusSeconds(900)).toSeconds();
    assertThat(left).isBetween(28L, 31L);
    assertThat(send(signed, "GET", Map.of(), null)).isEqualTo(200);
  }

  @Test
  void aRequestSignedBeforeARevokeIsRefusedByRgwOnceItsLifetimeHasPassed() throws Exception {
    String key = bed.tableKey(LAPSING, "sales", "t") + "data/kept.bin";
    CephRgw.put(admin, bed.bucket(), key, OWN);
    String uri = objectUri(bed.bucket(), key);
    JsonNode early = sign(LAPSING, "GET", uri, Map.of());
    JsonNode late = sign(LAPSING, "GET", uri, Map.of());
    Instant signedAt = Instant.now();
    bed.admin().revoke(LAPSING, "writer_cr", tableGrant());

    assertThat(send(early, "GET", Map.of(), null)).as("inside its 3 s").isEqualTo(200);
    Thread.sleep(Math.max(0, Duration.between(Instant.now(), signedAt.plusSeconds(5)).toMillis()));
    HttpResponse<String> refused = exchange(late.get("uri").asText(), late, "GET", Map.of(), null);
    assertThat(refused.statusCode()).as(refused.body()).isEqualTo(403);
    assertThat(refused.body()).contains("RequestTimeTooSkewed");
    assertThat(sign(LAPSING, "GET", uri, Map.of(), 403)).isNotNull();
  }

  // --- helpers

  private static String tableGrant() {
    return Admin.grantJson("table", List.of("sales"), "t", "TABLE_WRITE_DATA");
  }

  private static String objectUri(String bucket, String key) {
    return bed.rgw().endpoint() + "/" + bucket + "/" + key;
  }

  private static JsonNode sign(
      String catalog, String method, String uri, Map<String, List<String>> headers)
      throws Exception {
    return sign(catalog, method, uri, headers, 200);
  }

  private static JsonNode sign(
      String catalog, String method, String uri, Map<String, List<String>> headers, int expected)
      throws Exception {
    Map<String, Object> body = new LinkedHashMap<>();
    body.put("region", bed.rgw().region());
    body.put("method", method);
    body.put("uri", uri);
    Map<String, List<String>> all = new LinkedHashMap<>(headers);
    all.put("amz-sdk-invocation-id", List.of(UUID.randomUUID().toString()));
    body.put("headers", all);
    String path = "/v1/" + catalog + "/namespaces/sales/tables/t/sign";
    HttpResponse<String> answer =
        HTTP.send(
            HttpRequest.newBuilder(URI.create(bed.server().catalogUri() + path))
                .header("Authorization", "Bearer " + token)
                .header("Content-Type", "application/json")
                .POST(HttpRequest.BodyPublishers.ofString(JSON.writeValueAsString(body)))
                .build(),
            HttpResponse.BodyHandlers.ofString());
    assertThat(answer.statusCode()).as(answer.body()).isEqualTo(expected);
    if (expected == 200) {
      assertThat(answer.headers().firstValue("Cache-Control")).hasValue("no-store");
    }
    return JSON.readTree(answer.body());
  }

  private static int send(JsonNode signed, String method, Map<String, String> added, byte[] body)
      throws Exception {
    return sendTo(signed.get("uri").asText(), signed, method, added, body);
  }

  private static int sendTo(
      String uri, JsonNode signed, String method, Map<String, String> added, byte[] body)
      throws Exception {
    return exchange(uri, signed, method, added, body).statusCode();
  }

  /** Sends {@code signed} to {@code uri} as its client would, with {@code added} unsigned. */
  private static HttpResponse<String> exchange(
      String uri, JsonNode signed, String method, Map<String, String> added, byte[] body)
      throws Exception {
    HttpRequest.Builder request = HttpRequest.newBuilder(URI.create(uri));
    Set<String> setByTheClient = Set.of("host", "content-length", "connection", "expect");
    signed
        .get("headers")
        .fields()
        .forEachRemaining(
            h -> {
              if (!setByTheClient.contains(h.getKey().toLowerCase(Locale.ROOT))) {
                h.getValue().forEach(v -> request.header(h.getKey(), v.asText()));
              }
            });
    added.forEach(request::header);
    request.method(
        method,
        body == null
            ? HttpRequest.BodyPublishers.noBody()
            : HttpRequest.BodyPublishers.ofByteArray(body));
    return HTTP.send(request.build(), HttpResponse.BodyHandlers.ofString());
  }

  private static void assertVictimsIntact() {
    for (Map.Entry<String, String> victim : VICTIMS.entrySet()) {
      String prefix = victim.getValue();
      int slash = prefix.indexOf('/');
      String bucket = prefix.substring(0, slash);
      String key = prefix.substring(slash + 1) + "v.bin";
      assertThat(CephRgw.getBytes(admin, bucket, key))
          .as(victim.getKey())
          .isEqualTo(of(victim.getKey()));
      assertThat(publicGrants(bucket, key)).as(victim.getKey()).isEmpty();
      assertThat(anonymousGet(bucket, key)).isEqualTo(403);
    }
    for (String bucket : List.of(bed.bucket(), otherBucket)) {
      assertThat(bucketPolicy(bucket)).as("policy of %s", bucket).isNull();
      assertThat(
              admin.getBucketAcl(b -> b.bucket(bucket)).grants().stream()
                  .filter(SignedRequestTamperingTest::isPublicGrant))
          .isEmpty();
    }
    // Nothing of another table landed in this one: every object in its prefix is its own.
    admin
        .listObjectsV2(b -> b.bucket(bed.bucket()).prefix(table + "data/"))
        .contents()
        .forEach(
            o ->
                assertThat(CephRgw.getBytes(admin, bed.bucket(), o.key()))
                    .as(o.key())
                    .isEqualTo(OWN));
  }

  /** The content of the victim {@code what}: each one's own, none the table's. */
  private static byte[] of(String what) {
    return ("victim: " + what).getBytes(StandardCharsets.UTF_8);
  }

  private static List<Grant> publicGrants(String bucket, String key) {
    return admin.getObjectAcl(b -> b.bucket(bucket).key(key)).grants().stream()
        .filter(SignedRequestTamperingTest::isPublicGrant)
        .toList();
  }

  private static boolean isPublicGrant(Grant grant) {
    String uri = grant.grantee().uri();
    return uri != null && (uri.endsWith("/AllUsers") || uri.endsWith("/AuthenticatedUsers"));
  }

  private static String bucketPolicy(String bucket) {
    try {
      return admin.getBucketPolicy(b -> b.bucket(bucket)).policy();
    } catch (S3Exception e) {
      if (e.statusCode() == 404) {
        return null;
      }
      throw e;
    }
  }

  private static int anonymousGet(String bucket, String key) {
    try {
      return HTTP.send(
              HttpRequest.newBuilder(URI.create(objectUri(bucket, key))).build(),
              HttpResponse.BodyHandlers.discarding())
          .statusCode();
    } catch (Exception e) {
      throw new IllegalStateException(e);
    }
  }

  private static boolean exists(String bucket, String key) {
    try {
      return CephRgw.get(admin, bucket, key) == 200;
    } catch (NoSuchKeyException e) {
      return false;
    }
  }
}
