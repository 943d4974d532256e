package dev.sluice.vending.s3;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.sluice.vending.AccessMode;
import dev.sluice.vending.RequestTarget;
import dev.sluice.vending.StorageRequest;
import java.net.URI;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * The parts of {@link S3RequestParser} the RGW tests (path style, one endpoint) do not reach: AWS's
 * default endpoint, virtual-hosted addressing, and what a target's paths are checked against. The
 * refusals themselves run over HTTP in RemoteSigningHostileRequestsTest.
 */
class S3RequestParserTest {
  private static final S3RequestParser AWS = new S3RequestParser("eu-west-1", null, false);

  private static RequestTarget parse(S3RequestParser parser, String method, String uri) {
    return parser.parse(new StorageRequest(method, URI.create(uri), "eu-west-1", Map.of(), null));
  }

  @Test
  void readsVirtualHostedAndPathStyleUrisOfTheRegionalEndpoint() {
    RequestTarget virtual =
        parse(AWS, "GET", "https://lake.s3.eu-west-1.amazonaws.com/wh/t/data/a%20b.parquet");
    assertThat(virtual.paths()).containsExactly("lake/wh/t/data/a b.parquet");
    assertThat(virtual.needed()).isEqualTo(AccessMode.READ);
    RequestTarget path =
        parse(AWS, "PUT", "https://s3.eu-west-1.amazonaws.com/lake/wh/t/data/x.parquet");
    assertThat(path.paths()).containsExactly("lake/wh/t/data/x.parquet");
    assertThat(path.needed()).isEqualTo(AccessMode.READ_WRITE);
    RequestTarget list =
        parse(AWS, "GET", "https://lake.s3.eu-west-1.amazonaws.com/?list-type=2&prefix=wh%2Ft%2F");
    assertThat(list.paths()).containsExactly("lake/wh/t/");
    assertThat(list.listing()).isTrue();
  }

  @Test
  void aPathStyleCatalogRefusesVirtualHostedUrisAndOtherHosts() {
    S3RequestParser rgw = new S3RequestParser("eu-west-1", "http://rgw.local:7480", true);
    assertThat(parse(rgw, "GET", "http://rgw.local:7480/lake/wh/t/x").paths())
        .containsExactly("lake/wh/t/x");
    // A store that reads paths path-style would serve bucket "wh", not "lake": never signed.
    assertThatThrownBy(() -> parse(rgw, "GET", "http://lake.rgw.local:7480/wh/t/x"))
        .hasMessageContaining("path-style")
        .hasMessageContaining("storageConfigInfo.pathStyleAccess is false");
    assertThatThrownBy(() -> parse(rgw, "GET", "http://evil.example:7480/lake/wh/t/x"))
        .hasMessageContaining("not the catalog's S3 endpoint");
    assertThatThrownBy(() -> parse(AWS, "GET", "https://lake.s3.us-east-1.amazonaws.com/wh/t/x"))
        .hasMessageContaining("not the catalog's S3 endpoint");
  }

  @Test
  void aPathIsInsideALocationOnlyBelowItsWholeLastSegment() {
    List<String> owned = List.of("s3://lake/wh/t/", "s3a://lake/wh/t_data/");
    assertThat(target("lake/wh/t/data/x").within(owned)).isTrue();
    assertThat(target("lake/wh/t_data/x").within(owned)).isTrue();
    assertThat(target("lake/wh/t2/x").within(owned)).isFalse();
    assertThat(target("lake/wh/t").within(owned)).as("the prefix 'wh/t' also lists t2").isFalse();
    assertThat(target("other/wh/t/x").within(owned)).isFalse();
    assertThat(target("lake/wh/t/x", "lake/wh/u/x").within(owned))
        .as("every path must be inside")
        .isFalse();
  }

  @Test
  void theHeadersIcebergsS3FileIoSendsAreSigned() {
    Map<String, List<String>> put =
        Map.of(
            "Content-Type", List.of("application/octet-stream"),
            "Content-Length", List.of("42"),
            "x-amz-content-sha256", List.of("UNSIGNED-PAYLOAD"),
            "amz-sdk-invocation-id", List.of("1"),
            "amz-sdk-request", List.of("attempt=1; max=3"),
            "User-Agent", List.of("aws-sdk-java/2.31"),
            "x-amz-acl", List.of("bucket-owner-full-control"),
            "x-amz-server-side-encryption", List.of("AES256"),
            "x-amz-checksum-crc32", List.of("AAAAAA=="),
            "x-amz-meta-iceberg", List.of("1"));
    RequestTarget target =
        AWS.parse(
            new StorageRequest(
                "PUT",
                URI.create("https://lake.s3.eu-west-1.amazonaws.com/wh/t/data/x.parquet"),
                "eu-west-1",
                put,
                null));
    assertThat(target.needed()).isEqualTo(AccessMode.READ_WRITE);
  }

  @Test
  void headerNamesAreReadAsTheStoreReadsThem() {
    assertThat(SignableHeaders.canonical(" X_Amz-ACL ")).isEqualTo("x-amz-acl");
    assertThatThrownBy(() -> headers(Map.of("X_AMZ_ACL", List.of("private"))))
        .hasMessageContaining("stores read '_'")
        .hasMessageContaining("x-amz-acl");
    assertThatThrownBy(
            () ->
                headers(
                    Map.of("x-amz-acl", List.of("private"), "X-AMZ-ACL", List.of("public-read"))))
        .hasMessageContaining("x-amz-acl is given twice");
    assertThatThrownBy(() -> headers(Map.of("x-amz-copy-source ", List.of("/b/k"))))
        .hasMessageContaining("is not signed");
    assertThatThrownBy(() -> headers(Map.of("x-amz-tagging", List.of("a=b"))))
        .hasMessageContaining("not a header Iceberg's or the engines' S3 clients send");
    assertThatThrownBy(() -> headers(Map.of("x-amz-meta-", List.of("v"))))
        .hasMessageContaining("not a header");
  }

  private static RequestTarget headers(Map<String, List<String>> headers) {
    return AWS.parse(
        new StorageRequest(
            "PUT",
            URI.create("https://lake.s3.eu-west-1.amazonaws.com/wh/t/data/x.parquet"),
            "eu-west-1",
            headers,
            null));
  }

  private static RequestTarget target(String... paths) {
    return new RequestTarget(List.of(paths), false, AccessMode.READ, "get");
  }
}
