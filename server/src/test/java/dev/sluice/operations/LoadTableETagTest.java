package dev.sluice.operations;

import static org.assertj.core.api.Assertions.assertThat;

import dev.sluice.vending.AccessMode;
import dev.sluice.vending.Delegation;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.LinkedHashMap;
import java.util.Map;
import org.apache.iceberg.PartitionSpec;
import org.apache.iceberg.Schema;
import org.apache.iceberg.SortOrder;
import org.apache.iceberg.TableMetadata;
import org.apache.iceberg.TableMetadataParser;
import org.apache.iceberg.rest.credentials.ImmutableCredential;
import org.apache.iceberg.rest.responses.LoadTableResponse;
import org.apache.iceberg.types.Types;
import org.junit.jupiter.api.Test;

/** What the loadTable ETag covers, how If-None-Match is read, and when a 304 is allowed. */
class LoadTableETagTest {
  private static final Schema SCHEMA =
      new Schema(Types.NestedField.required(1, "id", Types.LongType.get()));
  private static final Delegation READ =
      Delegation.of(Delegation.Kind.VENDED_CREDENTIALS, AccessMode.READ);
  private static final Delegation READ_WRITE =
      Delegation.of(Delegation.Kind.VENDED_CREDENTIALS, AccessMode.READ_WRITE);

  private static TableMetadata metadata(String file) {
    TableMetadata staged =
        TableMetadata.newTableMetadata(
            SCHEMA, PartitionSpec.unpartitioned(), SortOrder.unsorted(), "s3://b/t", Map.of());
    return TableMetadataParser.fromJson(file, TableMetadataParser.toJson(staged));
  }

  private static final TableMetadata V1 = metadata("s3://b/t/metadata/00001-a.metadata.json");
  private static final TableMetadata V2 = metadata("s3://b/t/metadata/00002-b.metadata.json");

  private static LoadTableResponse response(
      TableMetadata metadata, Map<String, String> config, String token) {
    LoadTableResponse.Builder builder =
        LoadTableResponse.builder().withTableMetadata(metadata).addAllConfig(config);
    if (token != null) {
      builder.addCredential(
          ImmutableCredential.builder()
              .prefix("s3://b/t")
              .config(Map.of("s3.session-token", token, "s3.secret-access-key", "SECRET-" + token))
              .build());
    }
    return builder.build();
  }

  private static String tag(LoadTableResponse response, Delegation delegation) {
    return LoadTableETag.of(response, SnapshotsMode.ALL, delegation);
  }

  @Test
  void theSameResponseHasTheSameTagWhateverTheConfigOrder() {
    Map<String, String> ab = new LinkedHashMap<>();
    ab.put("a", "1");
    ab.put("b", "2");
    Map<String, String> ba = new LinkedHashMap<>();
    ba.put("b", "2");
    ba.put("a", "1");
    assertThat(tag(response(V1, ab, "t1"), READ)).isEqualTo(tag(response(V1, ba, "t1"), READ));
  }

  @Test
  void everyPartOfTheResponseChangesTheTag() {
    String base = tag(response(V1, Map.of("a", "1"), "t1"), READ);
    assertThat(tag(response(V2, Map.of("a", "1"), "t1"), READ)).isNotEqualTo(base);
    assertThat(LoadTableETag.of(response(V1, Map.of("a", "1"), "t1"), SnapshotsMode.REFS, READ))
        .isNotEqualTo(base);
    assertThat(tag(response(V1, Map.of("a", "1"), "t1"), READ_WRITE)).isNotEqualTo(base);
    assertThat(tag(response(V1, Map.of("a", "1"), "t1"), Delegation.NONE)).isNotEqualTo(base);
    assertThat(
            tag(
                response(V1, Map.of("a", "1"), "t1"),
                Delegation.of(Delegation.Kind.REMOTE_SIGNING, AccessMode.READ)))
        .isNotEqualTo(base);
    assertThat(tag(response(V1, Map.of("a", "2"), "t1"), READ)).isNotEqualTo(base);
    assertThat(tag(response(V1, Map.of("a", "1", "b", ""), "t1"), READ)).isNotEqualTo(base);
    // a re-vended credential
    assertThat(tag(response(V1, Map.of("a", "1"), "t2"), READ)).isNotEqualTo(base);
    assertThat(tag(response(V1, Map.of("a", "1"), null), READ)).isNotEqualTo(base);
    // parts are length-prefixed: moving a boundary is a change
    assertThat(tag(response(V1, Map.of("ab", "c"), null), READ))
        .isNotEqualTo(tag(response(V1, Map.of("a", "bc"), null), READ));
  }

  @Test
  void theTagNeverShowsTheSecret() {
    String etag = tag(response(V1, Map.of(), "t1"), READ);
    assertThat(etag).matches("\"[A-Za-z0-9_-]{22}\"").doesNotContain("SECRET").doesNotContain("t1");
  }

  @Test
  void ifNoneMatchReadsListsWildcardAndWeakTags() {
    String etag = "\"abc\"";
    assertThat(IfNoneMatch.matches(null, etag)).isFalse();
    assertThat(IfNoneMatch.matches("", etag)).isFalse();
    assertThat(IfNoneMatch.matches("\"abc\"", etag)).isTrue();
    assertThat(IfNoneMatch.matches(" * ", etag)).isTrue();
    assertThat(IfNoneMatch.matches("W/\"abc\"", etag)).isTrue();
    assertThat(IfNoneMatch.matches("\"x\", W/\"y\",\"abc\"", etag)).isTrue();
    assertThat(IfNoneMatch.matches("\"x\",,\t\"abc\"", etag)).isTrue();
    assertThat(IfNoneMatch.matches("\"abcd\"", etag)).isFalse();
    assertThat(IfNoneMatch.matches("\"ab\"", etag)).isFalse();
    assertThat(IfNoneMatch.matches("abc", etag)).isFalse();
    assertThat(IfNoneMatch.matches("\"abc", etag)).isFalse();
    assertThat(IfNoneMatch.matches("\"x\", abc, \"abc\"", etag)).isFalse(); // malformed list
    assertThat(IfNoneMatch.matches("w/\"abc\"", etag)).isFalse(); // W/ is case-sensitive
  }

  @Test
  void noNotModifiedForACredentialInItsLastMinute() {
    Instant now = Instant.parse("2026-12-01T10:00:00Z");
    ConditionalLoad conditional = new ConditionalLoad(Clock.fixed(now, ZoneOffset.UTC));
    long nowMs = now.toEpochMilli();
    String etag = "\"abc\"";
    assertThat(conditional.notModified(etag, etag, TableCredentials.Loaded.NEVER)).isTrue();
    assertThat(conditional.notModified(etag, etag, nowMs + 61_000)).isTrue();
    assertThat(conditional.notModified(etag, etag, nowMs + 60_000)).isTrue();
    assertThat(conditional.notModified(etag, etag, nowMs + 59_999)).isFalse();
    assertThat(conditional.notModified(etag, etag, nowMs - 1)).isFalse();
    assertThat(conditional.notModified(null, etag, TableCredentials.Loaded.NEVER)).isFalse();
    assertThat(conditional.notModified("\"other\"", etag, TableCredentials.Loaded.NEVER)).isFalse();
  }
}
