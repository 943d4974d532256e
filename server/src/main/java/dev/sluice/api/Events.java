package dev.sluice.api;

import java.util.List;

/** A page of audit events, newest first. */
public record Events(List<Event> events, String nextPageToken) implements Paged<Event> {
  public Events {
    events = Fields.copy(events);
  }

  @Override
  public List<Event> items() {
    return events;
  }
}
