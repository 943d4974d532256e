package dev.sluice.api;

import java.util.List;

/** A page of principals. */
public record Principals(List<Principal> principals, String nextPageToken)
    implements Paged<Principal> {
  public Principals {
    principals = Fields.copy(principals);
  }

  @Override
  public List<Principal> items() {
    return principals;
  }
}
