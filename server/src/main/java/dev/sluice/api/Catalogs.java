package dev.sluice.api;

import java.util.List;

/** {@code GET /catalogs}: one page of catalogs, and the token of the next (null on the last). */
public record Catalogs(List<Catalog> catalogs, String nextPageToken) implements Paged<Catalog> {
  public Catalogs {
    catalogs = Fields.copy(catalogs);
  }

  @Override
  public List<Catalog> items() {
    return catalogs;
  }
}
