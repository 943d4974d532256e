package dev.sluice.api;

import java.util.List;

/** A page of a catalog role's grants. */
public record Grants(List<Grant> grants, String nextPageToken) implements Paged<Grant> {
  public Grants {
    grants = Fields.copy(grants);
  }

  @Override
  public List<Grant> items() {
    return grants;
  }
}
