package dev.sluice.location;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import org.junit.jupiter.api.Test;

class StorageLocationKeyTest {
  @Test
  void spellingsOfOnePlaceShareAKeyAndAncestorsRunFromTheRoot() {
    assertThat(StorageLocation.parse("file:/w/a").key()).isEqualTo("file:///w/a/");
    assertThat(StorageLocation.parse("file:///w/a/").key()).isEqualTo("file:///w/a/");
    assertThat(StorageLocation.parse("/w/a").key()).isEqualTo("file:///w/a/");
    assertThat(StorageLocation.parse("S3://bkt/x").key()).isEqualTo("s3://bkt/x/");
    assertThat(StorageLocation.parse("s3://bkt").key()).isEqualTo("s3://bkt/");
    assertThat(StorageLocation.parse("s3://bkt/x/y").ancestorKeys())
        .containsExactly("s3://bkt/", "s3://bkt/x/", "s3://bkt/x/y/");
    assertThat(StorageLocation.parse("s3://bkt/x/y").rootKey()).isEqualTo("s3://bkt/");
  }

  @Test
  void anEmptySegmentInsideAPathIsRefusedNotFoldedAway() {
    // Folded, "gs://b/wh/ns//t" would be keyed and scoped as gs://b/wh/ns/t/, missing its files.
    for (String location :
        new String[] {"gs://b/wh/ns//t", "s3://b//wh", "s3://b/wh//", "file:///w//a"}) {
      assertThatThrownBy(() -> StorageLocation.parse(location))
          .as(location)
          .hasMessageContaining("empty segment");
    }
    assertThat(StorageLocation.parse("gs://b/wh/ns/t/").key()).isEqualTo("gs://b/wh/ns/t/");
    assertThat(StorageLocation.parse("s3://b").key()).isEqualTo("s3://b/");
    assertThat(StorageLocation.parse("s3://b/").segments()).isEmpty();
  }

  @Test
  void s3aIsAnotherNameOfS3() {
    // One bucket, one key: an s3a:// table must overlap an s3:// one at the same place.
    assertThat(StorageLocation.parse("s3a://bkt/x").key()).isEqualTo("s3://bkt/x/");
    assertThat(StorageLocation.parse("S3A://bkt/x/").key()).isEqualTo("s3://bkt/x/");
    assertThat(StorageLocation.parse("s3://bkt").covers(StorageLocation.parse("s3a://bkt/x")))
        .isTrue();
    assertThat(StorageLocation.parse("s3a://bkt/x").covers(StorageLocation.parse("s3://bkt/x/y")))
        .isTrue();
    // Other stores keep their own schemes.
    assertThat(StorageLocation.parse("gs://bkt/x").key()).isEqualTo("gs://bkt/x/");
    assertThat(StorageLocation.parse("s3n://bkt/x").key()).isEqualTo("s3n://bkt/x/");
  }

  @Test
  void anAzureContainerHasOneKeyWhicheverEndpointAndCase() {
    // wasbs:// (Blob endpoint) and abfss:// (DFS endpoint) reach the same container; host names
    // are case-insensitive. A table under one spelling must overlap one under another.
    String key = "abfss://c@acct.dfs.core.windows.net/w/t/";
    for (String spelling :
        List.of(
            "abfss://c@acct.dfs.core.windows.net/w/t",
            "wasbs://c@acct.blob.core.windows.net/w/t",
            "abfss://c@ACCT.DFS.Core.Windows.Net/w/t/",
            "WASBS://c@Acct.Blob.core.windows.net/w/t")) {
      assertThat(StorageLocation.parse(spelling).key()).as(spelling).isEqualTo(key);
    }
    assertThat(
            StorageLocation.parse("wasbs://c@acct.blob.core.windows.net/w")
                .covers(StorageLocation.parse("abfss://c@Acct.dfs.core.windows.net/w/t")))
        .isTrue();
    // The location itself keeps its spelling (ADLSFileIO names credentials after its host).
    assertThat(StorageLocation.parse("wasbs://c@acct.blob.core.windows.net/w").authority())
        .isEqualTo("c@acct.blob.core.windows.net");
    // Another container, account or path segment is another place; so is a segment's case.
    for (String other :
        List.of(
            "abfss://d@acct.dfs.core.windows.net/w/t",
            "abfss://c@acct2.dfs.core.windows.net/w/t",
            "abfss://c@acct.dfs.core.windows.net/w/T",
            "abfss://c@acct.dfs.core.windows.net/w/t2")) {
      assertThat(StorageLocation.parse(other).key()).as(other).isNotEqualTo(key);
    }
  }

  @Test
  void keysCompareSegmentWise() {
    // t is not a prefix of t2 once keys end in a slash.
    assertThat(StorageLocation.parse("s3://b/t2").key())
        .doesNotStartWith(StorageLocation.parse("s3://b/t").key());
    assertThat(StorageLocation.parse("s3://b/t/x").key())
        .startsWith(StorageLocation.parse("s3://b/t").key());
  }

  @Test
  void overlongLocationsAreRefused() {
    assertThat(LocationSafety.escapes("s3://b/" + "x".repeat(900)))
        .contains("longer than 900 bytes");
    assertThat(LocationSafety.escapes("s3://b/" + "x".repeat(880))).isEmpty();
  }
}
