package dev.sluice;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.sluice.testing.Admin;
import dev.sluice.testing.CephRgw;
import dev.sluice.testing.ErrorShape;
import dev.sluice.testing.NeedsTestBeds;
import dev.sluice.testing.RgwVendingBed;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;
import java.util.stream.IntStream;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;
import software.amazon.awssdk.services.s3.model.NoSuchKeyException;

/**
 * A corpus of hostile remote-signing requests, each sent over HTTP to the sign endpoint of one
 * table on the real Ceph RGW bed by a principal holding TABLE_WRITE_DATA on its namespace, so that
 * the request's shape, not the caller's grants, is what refuses it. Every answer must be the
 * expected 4xx as an Iceberg ErrorResponse with a message naming what was wrong, and carry no
 * signature. Should Sluice sign one anyway, the test hands the signature to RGW, as a client would,
 * so that the objects each write-type case names show the damage. Two positive controls prove the
 * same endpoint signs ordinary requests that RGW accepts.
 *
 * <p>Requests are templates: {@code '} stands for {@code "}; {@code {R}} is the region, {@code
 * {EP}} the endpoint ({@code {H}} host, {@code {P}} port, {@code {P+1}} another port), {@code {B}}
 * the bucket, {@code {T}} the table's key ({@code bucket}-relative, ending in '/'; {@code {T-}}
 * without it), {@code {S}} the sibling table t2's, {@code {O}} another table's; {@code {U}} is
 * {@code {EP}/{B}/{T}} and {@code {L}} a listing's URI up to its prefix.
 */
@NeedsTestBeds
class RemoteSigningHostileRequestsTest {
  private static final ObjectMapper JSON = new ObjectMapper();
  private static final HttpClient HTTP = HttpClient.newHttpClient();
  private static final String CATALOG = "hostile";
  private static final String NS = "sales";
  private static final String SIGNER = "signer";
  private static final String OUTSIDE = "outside the locations of table";
  private static final String HEADERS = "{'amz-sdk-invocation-id':['1']}";
  private static final String KEPT = "{T}data/kept.parquet";
  private static final String VICTIM = "{O}data/victim.parquet";
  private static final String TWICE = "{T}data/twice.parquet";
  private static final String ALL_USERS = "uri=http://acs.amazonaws.com/groups/global/AllUsers";

  private static RgwVendingBed bed;
  private static String token;
  private static final Map<String, String> VARS = new LinkedHashMap<>();

  /** One hostile request, who sends it to which table, and what it must leave on RGW. */
  record Case(
      String name,
      int status,
      String fragment,
      String json,
      String token,
      String table,
      String absent,
      String kept) {
    /** The same request with one more top-level field ({@code 'name':value}). */
    Case with(String field) {
      String more = json.substring(0, json.length() - 1) + "," + field + "}";
      return new Case(name, status, fragment, more, token, table, absent, kept);
    }

    Case as(String bearer) {
      return new Case(name, status, fragment, json, bearer, table, absent, kept);
    }

    Case on(String other) {
      return new Case(name, status, fragment, json, token, other, absent, kept);
    }

    Case absentAfter(String key) {
      return new Case(name, status, fragment, json, token, table, key, kept);
    }

    Case keptAfter(String key) {
      return new Case(name, status, fragment, json, token, table, absent, key);
    }

    @Override
    public String toString() {
      return name;
    }
  }

  static Stream<Case> corpus() {
    String half = "a".repeat(4097);
    return Stream.of(
        // The body's shape: one JSON object, each field once and of its type.
        raw("malformed JSON", 400, "Invalid JSON body", "{'region':'{R}','method':"),
        raw("empty body", 400, "empty body", ""),
        raw("body is an array", 400, "expected a JSON object", "[{'method':'GET'}]"),
        raw("body is a string", 400, "expected a JSON object", "'GET'"),
        raw("body is JSON null", 400, "expected a JSON object", "null"),
        raw(
            "deeply nested JSON",
            400,
            "nesting depth",
            "{'properties': {'a': " + "[".repeat(5000) + "]".repeat(5000) + "}}"),
        raw("a field given twice", 400, "Duplicate field 'method'", twice()).keptAfter(TWICE),
        raw("content after the object", 400, "Trailing token", json("GET", "{U}x") + " {}"),
        field("missing region", "missing region", "region", null),
        field("region is a number", "region must be a string", "region", "1"),
        field("missing method", "missing method", "method", null),
        field("method is an array", "method must be a string", "method", "['GET']"),
        field("missing uri", "missing uri", "uri", null),
        field("uri is an object", "uri must be a string", "uri", "{'host':'x'}"),
        field("missing headers", "headers must be an object", "headers", null),
        field("headers is an array", "headers must be an object", "headers", "[['a','b']]"),
        field("header value is a string", "array of strings", "headers", "{'a':'v'}"),
        field("header value holds a number", "array of strings", "headers", "{'a':[1]}"),
        field("header value holds null", "array of strings", "headers", "{'a':[null]}"),
        field("header value is an object", "array of strings", "headers", "{'a':{'v':1}}"),
        field("body is a number", "body must be a string", "body", "7"),
        field("properties is an array", "properties must be an object", "properties", "[]"),
        field("provider gcs", "provider gcs is not signed", "provider", "'gcs'"),
        field("provider S3 in capitals", "provider S3 is not signed", "provider", "'S3'"),
        field("another region", "not the catalog's region", "region", "'eu-west-1'"),
        field("region with a space", "not the catalog's region", "region", "'{R} '"),
        field("method PATCH", "Method PATCH is not signed", "method", "'PATCH'"),
        field("method OPTIONS", "Method OPTIONS is not signed", "method", "'OPTIONS'"),
        field("method in lower case", "Method get is not signed", "method", "'get'"),
        field("method TRACE", "Method TRACE is not signed", "method", "'TRACE'"),
        field("method with CR/LF", "Method GET?? is not signed", "method", "'GET\\r\\n'"),
        field("method empty", "Method  is not signed", "method", "''"),
        // The endpoint: the catalog's scheme, host and port, path-style, nothing else.
        bad("uri is not a URI", "uri is not a URI", "GET", "{U}data/a b"),
        bad("uri without scheme", "not an absolute URL", "GET", "/{B}/{T}x"),
        bad("relative uri", "not an absolute URL", "GET", "{B}/{T}x"),
        bad("opaque uri", "not an absolute URL", "GET", "mailto:{B}@{H}"),
        bad("uri without host", "not an absolute URL", "GET", "http:///{B}/{T}x"),
        bad("another host", "S3 endpoint", "GET", "http://{H}.evil.example:{P}/{B}/{T}x"),
        bad("another port", "S3 endpoint", "GET", "http://{H}:{P+1}/{B}/{T}x"),
        bad("the default port", "S3 endpoint", "GET", "http://{H}/{B}/{T}x"),
        bad("https for http", "S3 endpoint", "GET", "https://{H}:{P}/{B}/{T}x"),
        bad("user info", "no user info", "GET", "http://u:p@{H}:{P}/{B}/{T}x"),
        bad("endpoint as user info", "no user info", "GET", "http://{H}:{P}@evil.example/{B}"),
        bad("fragment", "no user info or fragment", "GET", "{U}x#frag"),
        bad("virtual-hosted, path-style catalog", "S3 endpoint", "GET", "http://{B}.{H}:{P}/x"),
        bad("no bucket", "names no bucket", "GET", "{EP}"),
        bad("invalid bucket name", "Invalid bucket name", "GET", "{EP}/b$x/{T}x"),
        // The path: decoded once; no separators, dot segments or control characters in it.
        bad("encoded slash %2F", "encoded separator", "GET", "{U}data%2F..%2F..%2Fx"),
        bad("encoded slash %2f", "encoded separator", "PUT", "{U}data%2fx")
            .absentAfter("{T}data/x"),
        bad("encoded backslash %5C", "encoded separator", "DELETE", "{U}data%5Ckept.parquet"),
        bad("backslash", "uri is not a URI", "GET", "{U}data\\\\..\\\\x"),
        bad("dot-dot", "'..' segment", "DELETE", "{U}../other/data/victim.parquet")
            .keptAfter(VICTIM),
        bad("dot", "'..' segment", "PUT", "{U}./data/x").absentAfter("{T}data/x"),
        bad("encoded dot-dot %2e%2e", "'..' segment", "GET", "{U}%2e%2e/other/x"),
        bad("encoded dot-dot %2E%2e", "'..' segment", "GET", "{U}%2E%2e/other/x"),
        bad("half-encoded dot-dot .%2e", "'..' segment", "GET", "{U}.%2e/other/x"),
        bad("encoded dot %2e", "'..' segment", "GET", "{U}%2e/data/x"),
        bad("empty segment //", "An empty", "PUT", "{U}data//x").absentAfter("{T}data/x"),
        bad("trailing slash", "An empty", "PUT", "{U}data/"),
        bad("NUL in the key", "control character", "PUT", "{U}data/x%00.parquet"),
        bad("LF in the key", "control character", "PUT", "{U}data/x%0a.parquet"),
        bad("DEL in the key", "control character", "GET", "{U}data/x%7f"),
        bad("C1 control in the key", "control character", "GET", "{U}data/x%c2%85"),
        bad("invalid UTF-8 %c3%28", "Invalid UTF-8", "GET", "{U}data/x%c3%28"),
        bad("overlong UTF-8 dot-dot", "Invalid UTF-8", "GET", "{U}%c0%ae%c0%ae/x"),
        bad("malformed percent %zz", "uri is not a URI", "GET", "{U}data/x%zz"),
        bad("trailing percent", "uri is not a URI", "GET", "{U}data/x%"),
        bad("malformed percent in a query", "uri is not a URI", "GET", "{U}x?x-id=%g1"),
        bad("raw non-ASCII by an escape", "raw non-ASCII", "GET", "{U}data/\u00e9%41"),
        // Query parameters: only those the operation needs, each once, unambiguous.
        bad("duplicated partNumber", "more than once", "PUT", "{U}x?partNumber=1&partNumber=2"),
        bad("duplicated prefix", "more than once", "GET", "{L}{T}&prefix=wh/"),
        bad("raw + in a prefix", "raw '+'", "GET", "{L}{T}p+q"),
        bad("GET ?acl", "acl is not signed for a GET", "GET", "{U}x?acl"),
        bad("PUT ?acl", "acl is not signed for a PUT", "PUT", "{U}x?acl"),
        bad("PUT ?tagging", "tagging is not signed", "PUT", "{U}x?tagging"),
        bad("DELETE ?tagging", "tagging is not signed", "DELETE", "{U}x?tagging"),
        bad("GET ?policy", "policy is not signed", "GET", "{U}x?policy"),
        bad("PUT ?versioning", "versioning is not signed", "PUT", "{U}x?versioning"),
        bad("PUT ?retention", "retention is not signed", "PUT", "{U}x?retention"),
        bad("presigned-URL style", "X-Amz-Expires is not", "GET", "{U}x?X-Amz-Expires=604800"),
        bad("DELETE ?versionId", "versionId is not", "DELETE", "{U}data/kept.parquet?versionId=n")
            .keptAfter(KEPT),
        bad("GET ?response-content-type", "is not signed", "GET", "{U}x?response-content-type=a"),
        bad("part without uploadId", "needs both", "PUT", "{U}x?partNumber=1"),
        bad("POST without ?uploads", "A POST on an object", "POST", "{U}x"),
        bad("POST ?select", "A POST on an object", "POST", "{U}x?select&select-type=2"),
        bad("POST ?uploads&uploadId", "uploadId is not signed", "POST", "{U}x?uploads&uploadId=u"),
        bad("empty query parameter name", "empty query parameter", "GET", "{U}x?=1"),
        bad("encoded parameter name %61cl", "acl is not signed", "GET", "{U}x?%61cl"),
        bad("listing versions", "versions is not signed", "GET", "{EP}/{B}?versions&prefix={T}"),
        bad("listing uploads", "uploads is not signed", "GET", "{EP}/{B}?uploads&prefix={T}"),
        // Bucket-level and multi-object requests.
        bad("multi-object delete", "multi-object delete", "POST", "{EP}/{B}?delete"),
        bad("multi-object delete with its body", "multi-object delete", "POST", "{EP}/{B}?delete")
            .with("'body':'<Delete><Object><Key>" + VICTIM + "</Key></Object></Delete>'")
            .keptAfter(VICTIM),
        bad("bucket-level PUT", "bucket-level PUT", "PUT", "{EP}/{B}"),
        bad("bucket PUT ?policy", "bucket-level PUT", "PUT", "{EP}/{B}?policy"),
        bad("bucket-level DELETE", "bucket-level DELETE", "DELETE", "{EP}/{B}/"),
        bad("bucket DELETE ?lifecycle", "bucket-level DELETE", "DELETE", "{EP}/{B}?lifecycle"),
        bad("bucket-level HEAD", "bucket-level HEAD", "HEAD", "{EP}/{B}"),
        bad("listing without prefix", "without a prefix", "GET", "{EP}/{B}?list-type=2"),
        bad("listing, empty prefix", "without a prefix", "GET", "{EP}/{B}/?list-type=2&prefix="),
        bad("bucket GET ?acl", "acl is not signed for a listing", "GET", "{EP}/{B}?acl"),
        // Paths outside the table's locations.
        out("listing another table", "GET", "{L}{O}"),
        out("listing the sibling t2", "GET", "{L}{S}"),
        out("listing t without its '/'", "GET", "{L}{T-}"),
        out("listing the warehouse", "GET", "{L}wh/"),
        out("GET another table's object", "GET", "{EP}/{B}/" + VICTIM),
        out("DELETE another table's object", "DELETE", "{EP}/{B}/" + VICTIM).keptAfter(VICTIM),
        out("PUT into the sibling t2", "PUT", "{EP}/{B}/{S}data/x").absentAfter("{S}data/x"),
        out("PUT beside the table", "PUT", "{EP}/{B}/{T-}x/data/x").absentAfter("{T-}x/data/x"),
        out("upload into another table", "POST", "{EP}/{B}/{O}data/x?uploads"),
        out("GET in another bucket", "GET", "{EP}/other-bucket/{T}data/x"),
        out("PUT in another bucket", "PUT", "{EP}/other-bucket/{T}data/x"),
        // Headers of a PUT: none that reads another object, carries a credential, opens the
        // object to others or locks it, breaks the request's framing, or is too big.
        hdr("x-amz-copy-source", "x-amz-copy-source is not", "x-amz-copy-source", "/{B}/" + VICTIM),
        hdr("X-Amz-Copy-Source", "X-Amz-Copy-Source is not", "X-Amz-Copy-Source", "/{B}/" + VICTIM),
        hdr("X-AMZ-COPY-SOURCE-RANGE", "RANGE is not", "X-AMZ-COPY-SOURCE-RANGE", "bytes=0-1"),
        hdr("Authorization supplied", "Authorization is not signed", "Authorization", "AWS a:b"),
        hdr("x-amz-security-token", "x-amz-security-token is", "x-amz-security-token", "t"),
        hdr("x-amz-acl public-read", "x-amz-acl public-read is not", "x-amz-acl", "public-read"),
        hdr("x-amz-grant-read to all", "x-amz-grant-read is not", "x-amz-grant-read", ALL_USERS),
        hdr("X-Amz-Grant-Full-Control", "Full-Control is not", "X-Amz-Grant-Full-Control", "id=e"),
        hdr("x-amz-object-lock-mode", "lock-mode is not", "x-amz-object-lock-mode", "COMPLIANCE"),
        hdr(
            "x-amz-website-redirect-location",
            "redirect-location is not",
            "x-amz-website-redirect-location",
            "https://evil.example/"),
        // Spellings the store reads as the names above (RGW reads header names CGI-style), and
        // headers no engine's S3 client sends.
        hdr("x_amz_copy_source", "stores read '_'", "x_amz_copy_source", "/{B}/" + VICTIM),
        hdr("x-amz_copy-source", "stores read '_'", "x-amz_copy-source", "/{B}/" + VICTIM),
        hdr("X_AMZ_ACL public-read", "stores read '_'", "X_AMZ_ACL", "public-read"),
        hdr("x_amz_grant_read", "stores read '_'", "x_amz_grant_read", ALL_USERS),
        hdr("copy source, trailing space", "is not signed", "x-amz-copy-source ", "/{B}/" + VICTIM),
        hdrs(
            "x-amz-acl in two cases",
            "x-amz-acl is given twice",
            "{'x-amz-acl':['private'],'X-Amz-Acl':['public-read']}"),
        hdrs(
            "content-type in two spellings",
            "content-type is given twice",
            "{'Content-Type':['a/b'],' content-type':['c/d']}"),
        hdr("x-amz-tagging", "not a header", "x-amz-tagging", "a=b"),
        hdr("x-amz-metadata-directive", "not a header", "x-amz-metadata-directive", "REPLACE"),
        hdr("x-amz-bypass-governance", "not a header", "x-amz-bypass-governance-retention", "true"),
        hdr("x-rgw-object-type", "not a header", "x-rgw-object-type", "Appendable"),
        hdr("an unknown header", "not a header", "x-forwarded-host", "evil.example"),
        hdr("CR/LF in a value", "header injection", "x-amz-meta-a", "v\\r\\nx-amz-acl: a"),
        hdr("LF in a name", "Invalid header name", "x-a\\nb", "v"),
        hdr("colon in a name", "Invalid header name", "Host: evil", "v"),
        hdr("empty name", "Invalid header name", "", "v"),
        hdr("Host of another host", "does not name the URI's host", "Host", "evil.example"),
        hdr("Host with another port", "does not name the URI's host", "host", "{H}:{P+1}"),
        hdrs("65 headers", "Too many headers: 65", many(65)),
        hdr("a value over 8 KB", "is too long", "x-amz-meta-a", "a".repeat(8193)),
        hdrs("values over 8 KB", "is too long", "{'x-amz-meta-m':['" + half + "','" + half + "']}"),
        // Bodies.
        bad("a body on a PUT", "A request body is", "PUT", "{U}data/x")
            .with("'body':'payload'")
            .absentAfter("{T}data/x"),
        bad("a 3 MB body field", "A request body is", "PUT", "{U}x")
            .with("'body':'" + "x".repeat(3 << 20) + "'"),
        req("a 9 MB request", 413, "exceeds the limit of 8388608", "PUT", "{U}x")
            .with("'body':'" + "x".repeat(9 << 20) + "'"),
        // Who asks, and for which table.
        req("no bearer token", 401, null, "GET", "{U}x").as(null),
        req("forged token", 401, null, "GET", "{U}x").as("eyJhbGciOiJub25lIn0.e30."),
        req("a table that does not exist", 404, "Table does not exist", "GET", "{U}x").on("nope"));
  }

  @BeforeAll
  static void start() throws Exception {
    bed = RgwVendingBed.start("sluice-hostile");
    createSigningCatalog();
    bed.createNamespace(CATALOG, NS);
    for (String table : List.of("t", "t2", "other")) {
      bed.createTable(CATALOG, NS, table);
    }
    Admin admin = bed.admin();
    String[] signer = admin.principal(SIGNER, "signers");
    admin.catalogRole(CATALOG, "signer_cr", "signers");
    admin.grant(
        CATALOG, "signer_cr", Admin.grantJson("namespace", List.of(NS), null, "TABLE_WRITE_DATA"));
    token = bed.server().token(signer[0], signer[1]);

    URI endpoint = URI.create(bed.rgw().endpoint());
    String t = bed.tableKey(CATALOG, NS, "t");
    VARS.put("{U}", "{EP}/{B}/{T}");
    VARS.put("{L}", "{EP}/{B}?list-type=2&prefix=");
    VARS.put("{EP}", bed.rgw().endpoint());
    VARS.put("{H}", endpoint.getHost());
    VARS.put("{P+1}", String.valueOf(endpoint.getPort() + 1));
    VARS.put("{P}", String.valueOf(endpoint.getPort()));
    VARS.put("{B}", bed.bucket());
    VARS.put("{T-}", t.substring(0, t.length() - 1));
    VARS.put("{T}", t);
    VARS.put("{S}", bed.tableKey(CATALOG, NS, "t2"));
    VARS.put("{O}", bed.tableKey(CATALOG, NS, "other"));
    VARS.put("{R}", bed.rgw().region());
    // Objects that hostile DELETEs name, which must survive them.
    for (String key : List.of(KEPT, VICTIM, TWICE)) {
      CephRgw.put(bed.rgw().adminClient(), bed.bucket(), expand(key), new byte[] {1});
    }
  }

  @AfterAll
  static void stop() throws Exception {
    bed.close();
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("corpus")
  void aHostileRequestIsRefusedWithAClearErrorAndNoSignature(Case c) throws Exception {
    HttpResponse<String> response = send(c);
    String body = response.body();
    if (response.statusCode() == 200) {
      // A signature for a hostile request: use it, as its client would, so the damage shows.
      JsonNode request = JSON.readTree(expand(c.json()));
      replay(request.path("method").asText(), body, request.path("body").asText(null));
    }
    if (c.absent() != null) {
      assertThat(exists(c.absent())).as("%s reached RGW", c.absent()).isFalse();
    }
    if (c.kept() != null) {
      assertThat(exists(c.kept())).as("%s still on RGW", c.kept()).isTrue();
    }
    int status = response.statusCode();
    assertThat(status).as(body).isLessThan(500).isEqualTo(c.status());
    String contentType = response.headers().firstValue("Content-Type").orElse(null);
    assertThat(ErrorShape.icebergProblem(status, contentType, body)).as(body).isNull();
    assertThat(body)
        .doesNotContain("Signature=", "AWS4-HMAC-SHA256", bed.rgw().secretKey())
        .satisfies(b -> assertThat(ErrorShape.hasStackTrace(b)).isFalse());
    if (c.fragment() != null) {
      assertThat(JSON.readTree(body).at("/error/message").asText()).contains(c.fragment());
    }
  }

  @Test
  void aPutInsideTheTableIsSignedAndRgwTakesIt() throws Exception {
    // With the canned ACL Iceberg's s3.acl may send, which opens nothing beyond the owner.
    String owner = "{'x-amz-acl':['bucket-owner-full-control']}";
    HttpResponse<String> put =
        send(raw("put", 200, null, json("PUT", "{U}data/control.parquet", owner)));
    assertSigned(put);
    assertThat(replay("PUT", put.body(), "control")).isEqualTo(200);
    assertThat(exists("{T}data/control.parquet")).isTrue();
    HttpRequest anonymous =
        HttpRequest.newBuilder(URI.create(expand("{U}data/control.parquet"))).build();
    assertThat(HTTP.send(anonymous, HttpResponse.BodyHandlers.discarding()).statusCode())
        .isEqualTo(403);
  }

  @Test
  void aGetInsideTheTableIsSignedAndRgwServesIt() throws Exception {
    HttpResponse<String> get = send(req("get", 200, null, "GET", "{U}data/kept.parquet"));
    assertSigned(get);
    assertThat(replay("GET", get.body(), null)).isEqualTo(200);
  }

  // --- the corpus's building blocks

  private static Case raw(String name, int status, String fragment, String json) {
    return new Case(name, status, fragment, json, SIGNER, "t", null, null);
  }

  private static Case req(String name, int status, String fragment, String method, String uri) {
    return raw(name, status, fragment, json(method, uri));
  }

  private static Case bad(String name, String fragment, String method, String uri) {
    return req(name, 400, fragment, method, uri);
  }

  private static Case out(String name, String method, String uri) {
    return req(name, 403, OUTSIDE, method, uri);
  }

  /** A PUT of an object of the table with this one header: its object must stay absent. */
  private static Case hdr(String name, String fragment, String header, String value) {
    return hdrs(name, fragment, "{'" + header + "':['" + value + "']}");
  }

  private static Case hdrs(String name, String fragment, String headers) {
    String key = "data/h-" + name.replaceAll("[^A-Za-z0-9]", "_");
    return raw(name, 400, fragment, json("PUT", "{U}" + key, headers)).absentAfter("{T}" + key);
  }

  /** The plain GET with {@code field} replaced by {@code value} (JSON; null: left out). */
  private static Case field(String name, String fragment, String field, String value) {
    Map<String, String> fields = new LinkedHashMap<>();
    fields.put("region", "'{R}'");
    fields.put("method", "'GET'");
    fields.put("uri", "'{U}data/x'");
    fields.put("headers", HEADERS);
    fields.remove(field);
    if (value != null) {
      fields.put(field, value);
    }
    String json =
        fields.entrySet().stream()
            .map(e -> "'" + e.getKey() + "':" + e.getValue())
            .collect(Collectors.joining(",", "{", "}"));
    return raw(name, 400, fragment, json);
  }

  private static String json(String method, String uri) {
    return json(method, uri, HEADERS);
  }

  private static String json(String method, String uri, String headers) {
    String json = "{'region':'{R}','method':'%s','uri':'%s','headers':%s}";
    return String.format(json, method, uri, headers);
  }

  /** A GET of an object, then the same field again naming a DELETE. */
  private static String twice() {
    String get = json("GET", "{EP}/{B}/" + TWICE);
    return get.substring(0, get.length() - 1) + ",'method':'DELETE'}";
  }

  private static String many(int headers) {
    return IntStream.range(0, headers)
        .mapToObj(i -> "'x-amz-meta-h" + i + "':['v']")
        .collect(Collectors.joining(",", "{", "}"));
  }

  private static String expand(String template) {
    String text = template.replace('\'', '"');
    for (Map.Entry<String, String> v : VARS.entrySet()) {
      text = text.replace(v.getKey(), v.getValue());
    }
    return text;
  }

  // --- HTTP to Sluice and RGW

  private static HttpResponse<String> send(Case c) throws Exception {
    String path = "/v1/" + CATALOG + "/namespaces/" + NS + "/tables/" + c.table() + "/sign";
    HttpRequest.Builder request =
        HttpRequest.newBuilder(URI.create(bed.server().catalogUri() + path))
            .header("Content-Type", "application/json")
            .POST(HttpRequest.BodyPublishers.ofString(expand(c.json())));
    if (c.token() != null) {
      request.header("Authorization", "Bearer " + (c.token().equals(SIGNER) ? token : c.token()));
    }
    return HTTP.send(request.build(), HttpResponse.BodyHandlers.ofString());
  }

  private static void assertSigned(HttpResponse<String> response) throws Exception {
    assertThat(response.statusCode()).as(response.body()).isEqualTo(200);
    assertThat(JSON.readTree(response.body()).at("/headers/Authorization/0").asText())
        .startsWith("AWS4-HMAC-SHA256 ")
        .contains("Signature=");
  }

  /** Sends what Sluice signed to RGW, as the client holding the signature would; RGW's status. */
  private static int replay(String method, String signed, String payload) throws Exception {
    JsonNode answer = JSON.readTree(signed);
    HttpRequest.Builder request = HttpRequest.newBuilder(URI.create(answer.get("uri").asText()));
    Set<String> setByTheClient = Set.of("host", "content-length", "connection", "expect");
    for (var it = answer.get("headers").fields(); it.hasNext(); ) {
      Map.Entry<String, JsonNode> h = it.next();
      if (!setByTheClient.contains(h.getKey().toLowerCase(Locale.ROOT))) {
        h.getValue().forEach(v -> request.header(h.getKey(), v.asText()));
      }
    }
    request.method(
        method,
        payload == null
            ? HttpRequest.BodyPublishers.noBody()
            : HttpRequest.BodyPublishers.ofString(payload, StandardCharsets.UTF_8));
    return HTTP.send(request.build(), HttpResponse.BodyHandlers.discarding()).statusCode();
  }

  /** Whether RGW holds the object ({@code key} a template), asked with the bed's admin keys. */
  private static boolean exists(String key) {
    try {
      return CephRgw.get(bed.rgw().adminClient(), bed.bucket(), expand(key)) == 200;
    } catch (NoSuchKeyException e) {
      return false;
    }
  }

  /** The bed's S3 catalog on {@code s3://bucket/wh}, offering remote signing only. */
  private static void createSigningCatalog() throws Exception {
    ObjectNode catalog = (ObjectNode) JSON.readTree(bed.catalogJson(CATALOG, bed.rgw().endpoint()));
    ((ObjectNode) catalog.at("/catalog/storageConfigInfo"))
        .putArray("delegation")
        .add("remote-signing");
    HttpResponse<String> created =
        bed.server().send("POST", "/api/management/v1/catalogs", catalog.toString());
    assertThat(created.statusCode()).as(created.body()).isEqualTo(201);
  }
}
