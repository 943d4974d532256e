package dev.sluice.client.comet;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.sluice.client.ReadableTable;
import dev.sluice.client.TableRef;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

class ReadableLocationsTest {

  private static ReadableTable table(String dotted, String... locations) {
    return new ReadableTable(TableRef.parse(dotted), List.of(locations));
  }

  private static Optional<String> owner(ReadableLocations r, String path) {
    return r.owner(ObjectPaths.decodePath(path)).map(o -> o.table().toString());
  }

  @Test
  void aLocationCoversItselfAndWhatIsBelowItSegmentBySegment() {
    ReadableLocations r = ReadableLocations.of("bkt", List.of(table("ns.a", "s3://bkt/wh/a")));

    assertThat(owner(r, "/wh/a")).contains("ns.a");
    assertThat(owner(r, "/wh/a/")).contains("ns.a");
    assertThat(owner(r, "/wh/a/data/part-0.parquet")).contains("ns.a");
    assertThat(owner(r, "/wh/a_eu")).isEmpty();
    assertThat(owner(r, "/wh/a_eu/data/part-0.parquet")).isEmpty();
    assertThat(owner(r, "/wh/ab")).isEmpty();
    assertThat(owner(r, "/wh")).isEmpty();
    assertThat(owner(r, "/")).isEmpty();
  }

  @Test
  void theLongestCoveringLocationWins() {
    ReadableLocations r =
        ReadableLocations.of(
            "bkt",
            List.of(
                table("ns.outer", "s3://bkt/wh/ns"),
                table("ns.inner", "s3://bkt/wh/ns/inner"),
                table("ns.sibling", "s3://bkt/wh/ns/inner_x")));

    assertThat(owner(r, "/wh/ns/inner/f.parquet")).contains("ns.inner");
    assertThat(owner(r, "/wh/ns/inner_x/f.parquet")).contains("ns.sibling");
    assertThat(owner(r, "/wh/ns/other/f.parquet")).contains("ns.outer");
  }

  @Test
  void otherBucketsAndSchemes() {
    ReadableLocations r =
        ReadableLocations.of(
            "bkt",
            List.of(
                table("ns.a", "s3a://bkt/wh/a", "s3://other/wh/a"),
                table("ns.b", "s3://other/wh/b")));

    assertThat(owner(r, "/wh/a/x")).contains("ns.a");
    assertThat(owner(r, "/wh/b/x")).isEmpty();
    assertThat(r.size()).isEqualTo(1);
    assertThat(r.policyLocations()).containsExactly("wh/a");
  }

  @Test
  void policyLocationsAreEncodedDedupedAndLeaveOutTheRoot() {
    ReadableLocations r =
        ReadableLocations.of(
            "bkt",
            List.of(
                table("ns.a", "s3://bkt/wh/100%/a", "s3://bkt/data/café/"),
                table("ns.root", "s3://bkt/"),
                table("ns.dup", "s3://bkt/wh/100%/a")));

    assertThat(r.policyLocations()).containsExactly("wh/100%25/a", "data/caf%C3%A9");
    // The encoded location, as Comet sends it back with a leading slash, maps to its table.
    assertThat(owner(r, "/wh/100%25/a")).contains("ns.a");
    // The root table owns the paths nothing else covers.
    assertThat(owner(r, "/")).contains("ns.root");
    assertThat(owner(r, "/elsewhere/f")).contains("ns.root");
  }

  @Test
  void locationsCometCouldNotUseAreLeftOut() {
    ReadableLocations r =
        ReadableLocations.of(
            "bkt",
            List.of(
                table("ns.bad", "s3://bkt/wh/../x", "not-a-uri", "gs://bkt/wh/g"),
                table("ns.good", "s3://bkt/wh/good")));

    assertThat(r.policyLocations()).containsExactly("wh/good");
    assertThat(owner(r, "/x/f")).isEmpty();
  }

  @Test
  void s3LocationsParse() {
    assertThat(S3Location.parse("S3://bkt/a/b/"))
        .isEqualTo(new S3Location("bkt", List.of("a", "b")));
    assertThat(S3Location.parse("s3://bkt")).isEqualTo(new S3Location("bkt", List.of()));
    assertThatThrownBy(() -> S3Location.parse("s3:///a")).hasMessageContaining("no bucket");
    assertThatThrownBy(() -> S3Location.parse("/bkt/a")).hasMessageContaining("not an s3://");
  }
}
