package dev.sluice.api;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonProperty;
import java.util.List;

/**
 * {@code GET /api/catalog/v1/{prefix}/readable-table-locations?bucket=B}, a Sluice extension of the
 * Iceberg REST API (kebab-case, as that API is): one page of the tables in bucket B the caller may
 * read, with their locations, for engine-side bridges (DataFusion Comet's {@code
 * getPolicyLocations}). A page may hold fewer tables than asked for while the token leads on.
 */
public record ReadableTableLocations(
    List<TableLocations> locations,
    @JsonProperty("next-page-token") @JsonInclude(JsonInclude.Include.NON_NULL)
        String nextPageToken) {
  public ReadableTableLocations {
    locations = Fields.copy(locations);
  }

  /** One table: its namespace levels, name, and locations in the bucket. */
  public record TableLocations(List<String> namespace, String table, List<String> locations) {
    public TableLocations {
      namespace = Fields.copy(namespace);
      locations = Fields.copy(locations);
    }
  }
}
