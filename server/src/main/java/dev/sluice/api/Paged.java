package dev.sluice.api;

import com.fasterxml.jackson.annotation.JsonIgnore;
import java.util.List;

/** A page of a list: its items and the token of the next page, null on the last. */
public interface Paged<T> {
  @JsonIgnore
  List<T> items();

  String nextPageToken();
}
