package dev.sluice.http;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

/** What an idempotent table answer keeps in the store: never config nor credentials. */
class TableReplaysTest {
  @Test
  void aStoredTableAnswerKeepsItsMetadataButNeitherConfigNorCredentials() {
    String answer =
        "{\"metadata-location\":\"s3://b/t/metadata/00001.metadata.json\",\"metadata\":{\"x\":1},"
            + "\"config\":{\"s3.access-key-id\":\"AKIA\",\"s3.secret-access-key\":\"secret\"},"
            + "\"storage-credentials\":[{\"prefix\":\"s3://b/t\",\"config\":{\"s3.session-token\":\"tok\"}}]}";
    assertThat(TableReplays.withoutCredentials(answer.getBytes(StandardCharsets.UTF_8)))
        .isEqualTo(
            "{\"metadata-location\":\"s3://b/t/metadata/00001.metadata.json\",\"metadata\":{\"x\":1}}");
  }

  @Test
  void aLargeAnswerKeepsOnlyItsMetadataFileName() {
    String big = "v".repeat(TableReplays.STORED_METADATA_MAX_CHARS);
    String answer =
        "{\"metadata-location\":\"s3://b/t/metadata/00001.metadata.json\",\"metadata\":{\"x\":\""
            + big
            + "\"},\"config\":{\"s3.secret-access-key\":\"secret\"}}";
    assertThat(TableReplays.withoutCredentials(answer.getBytes(StandardCharsets.UTF_8)))
        .isEqualTo("{\"metadata-location\":\"s3://b/t/metadata/00001.metadata.json\"}");
  }

  @Test
  void aStagedAnswerWithoutAFileKeepsItsMetadataButNoCredentials() {
    String answer =
        "{\"metadata\":{\"x\":1},\"config\":{\"s3.secret-access-key\":\"secret\"},"
            + "\"storage-credentials\":[{\"prefix\":\"s3://b/t\",\"config\":{\"k\":\"v\"}}]}";
    String stored = TableReplays.withoutCredentials(answer.getBytes(StandardCharsets.UTF_8));
    assertThat(stored).isEqualTo("{\"metadata\":{\"x\":1}}");
    assertThat(stored).doesNotContain("secret", "storage-credentials");
  }
}
