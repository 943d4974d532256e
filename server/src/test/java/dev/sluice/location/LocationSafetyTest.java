package dev.sluice.location;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The location-escape corpus every backend shares: none of these may ever be vended for; the safe
 * ones may (a backend may still refuse some: S3's policy characters, SessionPolicyBuilderTest).
 */
class LocationSafetyTest {
  private static final LocationPolicy POLICY =
      new LocationPolicy("c", List.of("s3://bucket/wh", "s3://other-ok/base"));

  @ParameterizedTest
  @ValueSource(
      strings = {
        "s3://bucket/wh/ns/t",
        "s3://bucket/wh",
        "s3://bucket/wh/ns/t/data",
        "s3://bucket/wh/ns/t/metadata",
        "s3://bucket/wh/ns/t/data/part-0.parquet",
        "s3://other-ok/base/x",
        "s3://bucket/wh/ns/t%20x",
      })
  void safeLocations(String location) {
    assertThat(LocationSafety.unsafe(location, POLICY)).isEmpty();
  }

  @ParameterizedTest
  @ValueSource(
      strings = {
        "s3://bucket/wh2/ns/t", // sibling prefix, not a child
        "s3://bucket/w", // parent of the allowed prefix
        "s3://bucket/", // bucket root
        "s3://bucket", // bucket only
        "s3://other/wh/ns/t", // another bucket
        "s3://bucket-other/wh/t", // bucket name that starts the same
        "gs://bucket/wh/ns/t", // another scheme
        "file:/bucket/wh/ns/t", // local path
        "s3://bucket/wh/../secrets", // relative segment
        "s3://bucket/wh/./t", // current-dir segment
        "s3://bucket/wh/ns//t", // empty segment, folded away in a prefix
        "s3://bucket/wh/ns/t//", // empty segment at the end
        "s3://bucket//wh/ns/t", // empty segment after the bucket
        "s3://bucket/wh/%2e%2e/secrets", // encoded ..
        "s3://bucket/wh/%2E%2E/secrets", // encoded .. upper-case
        "s3://bucket/wh/.%2e/secrets", // half-encoded ..
        "s3://bucket/wh/%252e%252e/secrets", // double-encoded ..
        "s3://bucket/wh/ns%2f..%2fx", // encoded slash hides a segment
        "s3://bucket/wh/ns%2Ft", // encoded slash
        "s3://bucket/wh/ns/t?x=1", // query
        "s3://bucket/wh/ns/t?", // IAM single-char wildcard
        "s3://bucket/wh/ns/t#frag", // fragment
        "s3://bucket/wh/ns/t\u0000", // NUL
        "s3://bucket/wh/ns/t\nx", // newline
        "s3://bucket/wh/ns/t%0a", // encoded newline
        "s3://bucket/wh/ns/t%00", // encoded NUL
        "s3://bucket/wh\\..\\x", // backslash
        "s3://bucket/wh/ns/t%5c..", // encoded backslash
        "s3://bucket/wh/%zz", // malformed percent-encoding
        "", // empty
        "s3://*/wh/t", // wildcard bucket
      })
  void unsafeLocations(String location) {
    assertThat(LocationSafety.unsafe(location, POLICY)).as(location).isPresent();
  }
}
