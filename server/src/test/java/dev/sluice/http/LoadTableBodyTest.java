package dev.sluice.http;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Map;
import org.apache.iceberg.PartitionSpec;
import org.apache.iceberg.Schema;
import org.apache.iceberg.SortOrder;
import org.apache.iceberg.TableMetadata;
import org.apache.iceberg.TableMetadataParser;
import org.apache.iceberg.rest.credentials.ImmutableCredential;
import org.apache.iceberg.rest.responses.LoadTableResponse;
import org.apache.iceberg.rest.responses.LoadTableResponseParser;
import org.apache.iceberg.types.Types;
import org.junit.jupiter.api.Test;

/** The cached writer must produce exactly what Iceberg's own parser writes. */
class LoadTableBodyTest {
  private static final Schema SCHEMA =
      new Schema(
          Types.NestedField.required(1, "id", Types.LongType.get()),
          Types.NestedField.optional(2, "data", Types.StringType.get()));

  private final LoadTableBody body = new LoadTableBody(1 << 20, Duration.ofMinutes(1));

  private static TableMetadata staged(String tableLocation) {
    return TableMetadata.newTableMetadata(
        SCHEMA,
        PartitionSpec.unpartitioned(),
        SortOrder.unsorted(),
        tableLocation,
        Map.of("owner", "jane"));
  }

  private static TableMetadata written(String tableLocation, String file) {
    return TableMetadataParser.fromJson(file, TableMetadataParser.toJson(staged(tableLocation)));
  }

  private String ours(LoadTableResponse response) {
    return new String(body.toJson(response), StandardCharsets.UTF_8);
  }

  @Test
  void plainLoadMatchesIcebergsParser() {
    LoadTableResponse response =
        LoadTableResponse.builder()
            .withTableMetadata(written("file:/w/t", "file:/w/t/metadata/00000-a.metadata.json"))
            .build();
    assertThat(ours(response)).isEqualTo(LoadTableResponseParser.toJson(response));
    // the second answer comes from the cache and is the same
    assertThat(ours(response)).isEqualTo(LoadTableResponseParser.toJson(response));
  }

  @Test
  void configAndCredentialsAreWrittenFreshPerCaller() {
    TableMetadata metadata = written("s3://b/t", "s3://b/t/metadata/00001-b.metadata.json");
    LoadTableResponse jane =
        LoadTableResponse.builder()
            .withTableMetadata(metadata)
            .addConfig("s3.access-key-id", "AKIA-JANE")
            .addCredential(
                ImmutableCredential.builder()
                    .prefix("s3://b/t")
                    .config(Map.of("s3.session-token", "jane"))
                    .build())
            .build();
    LoadTableResponse joe =
        LoadTableResponse.builder()
            .withTableMetadata(metadata)
            .addConfig("s3.access-key-id", "AKIA-JOE")
            .addCredential(
                ImmutableCredential.builder()
                    .prefix("s3://b/t")
                    .config(Map.of("s3.session-token", "joe"))
                    .build())
            .build();
    assertThat(ours(jane)).isEqualTo(LoadTableResponseParser.toJson(jane));
    assertThat(ours(joe)).isEqualTo(LoadTableResponseParser.toJson(joe)).doesNotContain("JANE");
  }

  @Test
  void eachMetadataFileHasItsOwnEntry() {
    TableMetadata first = written("file:/w/t", "file:/w/t/metadata/00000-a.metadata.json");
    TableMetadata second =
        TableMetadataParser.fromJson(
            "file:/w/t/metadata/00001-c.metadata.json",
            TableMetadataParser.toJson(
                TableMetadata.buildFrom(first).setProperties(Map.of("k", "v")).build()));
    LoadTableResponse a = LoadTableResponse.builder().withTableMetadata(first).build();
    LoadTableResponse b = LoadTableResponse.builder().withTableMetadata(second).build();
    assertThat(ours(a)).isEqualTo(LoadTableResponseParser.toJson(a));
    assertThat(ours(b)).isEqualTo(LoadTableResponseParser.toJson(b)).contains("\"k\":\"v\"");
  }

  @Test
  void stagedTableWithoutMetadataFileIsNotCached() {
    LoadTableResponse one =
        LoadTableResponse.builder().withTableMetadata(staged("file:/w/s")).build();
    LoadTableResponse two =
        LoadTableResponse.builder()
            .withTableMetadata(
                TableMetadata.buildFrom(staged("file:/w/s"))
                    .setProperties(Map.of("x", "y"))
                    .build())
            .build();
    assertThat(ours(one)).isEqualTo(LoadTableResponseParser.toJson(one));
    assertThat(ours(two)).isEqualTo(LoadTableResponseParser.toJson(two)).contains("\"x\":\"y\"");
  }
}
