package dev.sluice.vending;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.sluice.vending.FileScope.Narrowness;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Predicate;
import org.junit.jupiter.api.Test;

class FileScopesTest {
  private static final List<String> TABLE = List.of("s3://b/wh/t");

  private static Predicate<FileScope> atMost(int objects, int prefixes) {
    return s ->
        s.narrowness() == Narrowness.OBJECTS
            ? s.objects().size() <= objects
            : s.prefixes().size() <= prefixes;
  }

  @Test
  void exactObjectsWhenTheyFitDistinctAndSorted() {
    FileScope scope =
        FileScopes.narrowest(
            TABLE,
            List.of(
                "s3://b/wh/t/data/p=2/b.parquet",
                "s3://b/wh/t/data/p=1/a.parquet",
                "s3://b/wh/t/data/p=2/b.parquet"),
            atMost(10, 10));
    assertThat(scope.narrowness()).isEqualTo(Narrowness.OBJECTS);
    assertThat(scope.objects())
        .containsExactly("s3://b/wh/t/data/p=1/a.parquet", "s3://b/wh/t/data/p=2/b.parquet");
    assertThat(scope.prefixes()).isEmpty();
  }

  @Test
  void filesOutsideTheTableAreRefusedByName() {
    for (String outside :
        List.of(
            "s3://b/wh/t2/data/a.parquet", // a sibling whose name starts the same
            "s3://b/wh/a.parquet", // beside the table
            "s3://b/wh/t", // the table location itself is no object
            "s3://other/wh/t/data/a.parquet", // another bucket
            "gs://b/wh/t/data/a.parquet", // another scheme
            "s3://b/wh/t/data/../../t2/a.parquet", // climbs out
            "s3://b/wh/t//a.parquet", // empty segment
            "s3://b/wh/t/data/")) { // a directory
      assertThatThrownBy(
              () ->
                  FileScopes.narrowest(
                      TABLE, List.of("s3://b/wh/t/data/ok.parquet", outside), atMost(10, 10)))
          .as(outside)
          .isInstanceOf(IllegalArgumentException.class)
          .hasMessageContaining(outside);
    }
    // s3a:// is another spelling of the same bucket: inside.
    assertThat(FileScopes.narrowest(TABLE, List.of("s3a://b/wh/t/d/x"), atMost(1, 1)).objects())
        .containsExactly("s3a://b/wh/t/d/x");
  }

  @Test
  void prefixesEndAtASegmentBoundary() {
    FileScope scope =
        FileScopes.narrowest(
            TABLE,
            List.of("s3://b/wh/t/data/p=1/a.parquet", "s3://b/wh/t/data/p=10/b.parquet"),
            atMost(0, 10));
    assertThat(scope.narrowness()).isEqualTo(Narrowness.PREFIXES);
    assertThat(scope.prefixes()).containsExactly("s3://b/wh/t/data/p=1/", "s3://b/wh/t/data/p=10/");
    assertThat(scope.prefixes()).allSatisfy(p -> assertThat(p).endsWith("/"));
  }

  @Test
  void manyPartitionsMergeUpwardsDeepestFirstAndNeverIntoMetadata() {
    List<String> files = new ArrayList<>();
    for (int day = 1; day <= 30; day++) {
      files.add("s3://b/wh/t/data/month=1/day=" + day + "/f.parquet");
      files.add("s3://b/wh/t/data/month=2/day=" + day + "/f.parquet");
    }
    files.add("s3://b/wh/t/data/other/deep/er/f.parquet");
    // Three prefixes fit: the deepest (the outlier) is lifted first, then the days into months.
    FileScope three = FileScopes.narrowest(TABLE, files, atMost(0, 3));
    assertThat(three.narrowness()).isEqualTo(Narrowness.PREFIXES);
    assertThat(three.prefixes())
        .containsExactly(
            "s3://b/wh/t/data/month=1/",
            "s3://b/wh/t/data/month=2/",
            "s3://b/wh/t/data/other/deep/");
    // One prefix: the data directory, never the table (which holds metadata/).
    FileScope one = FileScopes.narrowest(TABLE, files, atMost(0, 1));
    assertThat(one.prefixes()).containsExactly("s3://b/wh/t/data/");
    assertThat(one.narrowness()).isEqualTo(Narrowness.PREFIXES);
  }

  @Test
  void fewestLiftsThatFitAtOneDepth() {
    List<String> files = new ArrayList<>();
    for (int i = 0; i < 5; i++) {
      files.add("s3://b/wh/t/data/a=" + i + "/x.parquet");
      files.add("s3://b/wh/t/data/a=" + i + "/y.parquet");
    }
    files.add("s3://b/wh/t/data/z=0/w/x.parquet");
    files.add("s3://b/wh/t/data/z=0/v/x.parquet");
    files.add("s3://b/wh/t/data/z=1/u/x.parquet");
    // 8 prefixes at first (5 + 3); lifting z=0's two leaves 7, z=1's one keeps 7: lifts z=0 only.
    FileScope scope = FileScopes.narrowest(TABLE, files, atMost(0, 7));
    assertThat(scope.prefixes())
        .contains("s3://b/wh/t/data/z=0/", "s3://b/wh/t/data/z=1/u/")
        .hasSize(7);
  }

  @Test
  void theTableWhenNothingNarrowerFits() {
    FileScope scope =
        FileScopes.narrowest(TABLE, List.of("s3://b/wh/t/data/p=1/a.parquet"), s -> false);
    assertThat(scope.narrowness()).isEqualTo(Narrowness.TABLE);
    assertThat(scope.prefixes()).containsExactly("s3://b/wh/t");
    assertThat(scope.objects()).isEmpty();
  }

  @Test
  void aFileInTheTableRootGivesTheTable() {
    FileScope scope = FileScopes.narrowest(TABLE, List.of("s3://b/wh/t/a.parquet"), atMost(0, 10));
    assertThat(scope.narrowness()).isEqualTo(Narrowness.TABLE);
  }

  @Test
  void noFilesGivesTheTable() {
    assertThat(FileScopes.narrowest(TABLE, List.of(), atMost(10, 10)).narrowness())
        .isEqualTo(Narrowness.TABLE);
  }

  @Test
  void eachTableLocationIsItsOwnFloor() {
    List<String> locations = List.of("s3://b/wh/t", "s3://c/data/t");
    List<String> files =
        List.of(
            "s3://b/wh/t/data/p=1/a",
            "s3://b/wh/t/data/p=2/a",
            "s3://c/data/t/p=1/a",
            "s3://c/data/t/p=2/a");
    FileScope scope = FileScopes.narrowest(locations, files, atMost(0, 2));
    assertThat(scope.prefixes()).containsExactly("s3://b/wh/t/data/", "s3://c/data/t/");
    assertThat(scope.narrowness()).isEqualTo(Narrowness.PREFIXES);
    // No lift past a location: both at their floors, and only then it is the table.
    FileScope table = FileScopes.narrowest(locations, files, atMost(0, 1));
    assertThat(table.narrowness()).isEqualTo(Narrowness.TABLE);
    assertThat(table.prefixes()).isEqualTo(locations);
  }

  @Test
  void nestedLocationsFloorAtTheOuterOne() {
    List<String> locations = List.of("s3://b/wh/t", "s3://b/wh/t/data");
    FileScope scope =
        FileScopes.narrowest(
            locations,
            List.of("s3://b/wh/t/data/p=1/a", "s3://b/wh/t/metadata/m.avro"),
            atMost(0, 1));
    assertThat(scope.narrowness()).isEqualTo(Narrowness.TABLE);
    FileScope two =
        FileScopes.narrowest(
            locations,
            List.of("s3://b/wh/t/data/p=1/a", "s3://b/wh/t/metadata/m.avro"),
            atMost(0, 2));
    assertThat(two.prefixes()).containsExactly("s3://b/wh/t/data/p=1/", "s3://b/wh/t/metadata/");
  }

  @Test
  void anUnfitPrefixIsLiftedPast() {
    // A backend that cannot name a key with '*' (an IAM wildcard) takes its parent directory.
    Predicate<FileScope> noStar =
        s ->
            s.objects().stream().noneMatch(o -> o.contains("*"))
                && s.prefixes().stream().noneMatch(p -> p.contains("*"));
    FileScope scope =
        FileScopes.narrowest(
            TABLE, List.of("s3://b/wh/t/data/p=*/a", "s3://b/wh/t/data/q/b"), noStar);
    assertThat(scope.prefixes()).containsExactly("s3://b/wh/t/data/");
  }

  @Test
  void commonDirectoriesPerStorageRoot() {
    assertThat(
            FileScopes.commonDirectories(
                List.of("s3://b/wh/t/data/p=1/a", "s3://b/wh/t/data/p=10/b"), List.of()))
        .containsExactly("s3://b/wh/t/data/");
    assertThat(FileScopes.commonDirectories(List.of("s3://b/wh/t/data/p=1/a"), List.of()))
        .containsExactly("s3://b/wh/t/data/p=1/");
    assertThat(
            FileScopes.commonDirectories(
                List.of("s3://c/x/y/z"), List.of("s3://b/wh/t/p=1/", "s3://b/wh/t/p=2/")))
        .containsExactly("s3://b/wh/t/", "s3://c/x/y/");
  }

  @Test
  void aScopeIsConsistent() {
    assertThatThrownBy(() -> new FileScope(Narrowness.OBJECTS, List.of(), List.of()))
        .isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> new FileScope(Narrowness.PREFIXES, List.of("s3://b/x"), List.of()))
        .isInstanceOf(IllegalArgumentException.class);
  }

  @Test
  void manyFilesNarrowQuickly() {
    List<String> files = new ArrayList<>();
    for (int p = 0; p < 5000; p++) {
      files.add("s3://b/wh/t/data/a=" + (p % 50) + "/b=" + p + "/f.parquet");
    }
    long start = System.nanoTime();
    FileScope scope = FileScopes.narrowest(TABLE, files, atMost(0, 60));
    assertThat(scope.prefixes()).hasSize(50);
    assertThat(System.nanoTime() - start).as("ns").isLessThan(5_000_000_000L);
  }
}
