package dev.sluice.vending.gcs;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.google.auth.oauth2.CredentialAccessBoundary;
import com.google.auth.oauth2.CredentialAccessBoundary.AccessBoundaryRule;
import dev.sluice.vending.AccessMode;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

/**
 * Golden access boundaries: the rules Sluice hands google-auth, per privilege and per location set,
 * rendered one rule per line as {@code resource | permissions | condition}.
 */
class AccessBoundaryBuilderTest {
  private static final String LIST =
      "api.getAttribute('storage.googleapis.com/objectListPrefix', '')";

  @Test
  void readerGetsReadRolesOnTheTablePrefixOnly() {
    assertThat(render(AccessBoundaryBuilder.build(List.of("gs://wh/db/t"), AccessMode.READ)))
        .isEqualTo(
            "//storage.googleapis.com/projects/_/buckets/wh"
                + " | inRole:roles/storage.legacyObjectReader,inRole:roles/storage.objectViewer"
                + " | resource.name.startsWith('projects/_/buckets/wh/objects/db/t/') || "
                + LIST
                + ".startsWith('db/t/')");
  }

  @Test
  void writerAlsoGetsObjectUserInTheSameRule() {
    assertThat(render(AccessBoundaryBuilder.build(List.of("gs://wh/db/t"), AccessMode.READ_WRITE)))
        .isEqualTo(
            "//storage.googleapis.com/projects/_/buckets/wh"
                + " | inRole:roles/storage.legacyObjectReader,inRole:roles/storage.objectViewer,"
                + "inRole:roles/storage.objectUser"
                + " | resource.name.startsWith('projects/_/buckets/wh/objects/db/t/') || "
                + LIST
                + ".startsWith('db/t/')");
  }

  @Test
  void locationsAreFoldedDeduplicatedAndGroupedByBucket() {
    List<String> locations =
        List.of(
            "gs://wh/db/t",
            "gs://wh/db/t/data",
            "gs://wh/db/t/metadata/",
            "gs://other/x/t-data",
            "gs://wh/db/t2");
    assertThat(render(AccessBoundaryBuilder.build(locations, AccessMode.READ)))
        .isEqualTo(
            "//storage.googleapis.com/projects/_/buckets/other"
                + " | inRole:roles/storage.legacyObjectReader,inRole:roles/storage.objectViewer"
                + " | resource.name.startsWith('projects/_/buckets/other/objects/x/t-data/') || "
                + LIST
                + ".startsWith('x/t-data/')\n"
                + "//storage.googleapis.com/projects/_/buckets/wh"
                + " | inRole:roles/storage.legacyObjectReader,inRole:roles/storage.objectViewer"
                + " | resource.name.startsWith('projects/_/buckets/wh/objects/db/t/')"
                + " || resource.name.startsWith('projects/_/buckets/wh/objects/db/t2/') || "
                + LIST
                + ".startsWith('db/t/') || "
                + LIST
                + ".startsWith('db/t2/')");
  }

  @Test
  void anEmptySegmentIsRefusedRatherThanFoldedIntoAnotherPrefix() {
    // Folded, gs://wh/db//t would be scoped as db/t/, which holds none of its objects.
    assertThatThrownBy(() -> AccessBoundaryBuilder.build(List.of("gs://wh/db//t"), AccessMode.READ))
        .hasMessageContaining("empty segment");
  }

  @Test
  void bucketRootsAndTooManyBucketsAreUnscopable() {
    assertThat(AccessBoundaryBuilder.unscopable(List.of("gs://wh/db/t", "gs://wh")))
        .hasValueSatisfying(why -> assertThat(why).contains("location 2", "root of bucket wh"));
    List<String> ten = new ArrayList<>();
    for (int i = 0; i < 10; i++) {
      ten.add("gs://b" + i + "/t");
    }
    assertThat(AccessBoundaryBuilder.unscopable(ten))
        .hasValueSatisfying(why -> assertThat(why).contains("10 buckets", "at most 9"));
    assertThat(AccessBoundaryBuilder.unscopable(ten.subList(0, 9))).isEmpty();
    assertThat(
            AccessBoundaryBuilder.build(ten.subList(0, 9), AccessMode.READ_WRITE)
                .getAccessBoundaryRules())
        .hasSize(AccessBoundaryBuilder.MAX_BUCKETS);
    assertThatThrownBy(() -> AccessBoundaryBuilder.build(ten, AccessMode.READ))
        .isInstanceOf(IllegalArgumentException.class);
  }

  @Test
  void quotesCannotReachTheCondition() {
    String breakout = "gs://wh/db/t') || true || ('";
    assertThat(AccessBoundaryBuilder.unsafe(breakout)).isPresent();
    assertThat(AccessBoundaryBuilder.unsafe("gs://wh/db/\"t\"")).isPresent();
    assertThat(AccessBoundaryBuilder.unsafe("gs://wh/db/t")).isEmpty();
    // Even if a caller skipped unsafe(), the builder refuses to write the literal.
    assertThatThrownBy(() -> AccessBoundaryBuilder.build(List.of(breakout), AccessMode.READ))
        .isInstanceOf(IllegalArgumentException.class);
  }

  private static String render(CredentialAccessBoundary boundary) {
    return boundary.getAccessBoundaryRules().stream()
        .map(AccessBoundaryBuilderTest::render)
        .collect(Collectors.joining("\n"));
  }

  private static String render(AccessBoundaryRule rule) {
    return rule.getAvailableResource()
        + " | "
        + String.join(",", rule.getAvailablePermissions())
        + " | "
        + rule.getAvailabilityCondition().getExpression();
  }
}
