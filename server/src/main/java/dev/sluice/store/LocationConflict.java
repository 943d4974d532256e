package dev.sluice.store;

/**
 * A location overlaps one that another table or view claims. {@link #claimed()} names the other
 * claim for the server's log; it must not reach a caller, who may not see that table.
 */
public final class LocationConflict extends RuntimeException {
  private final String location;
  private final String claimed;

  public LocationConflict(String location, String claimed) {
    super("Location " + location + " overlaps the location of another table or view");
    this.location = location;
    this.claimed = claimed;
  }

  public String location() {
    return location;
  }

  public String claimed() {
    return claimed;
  }
}
