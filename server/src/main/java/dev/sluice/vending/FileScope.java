package dev.sluice.vending;

import static java.util.Objects.requireNonNull;

import java.util.List;

/**
 * What a scan plan's credential covers: its exact objects, or the fewest directory prefixes (each
 * ending in {@code /}) inside the table that hold its files, or the table's own locations when the
 * backend could express nothing narrower.
 *
 * @param objects the exact objects (only for {@link Narrowness#OBJECTS})
 * @param prefixes the prefixes covered ({@link Narrowness#PREFIXES}: directories inside the table;
 *     {@link Narrowness#TABLE}: the table's locations)
 */
public record FileScope(Narrowness narrowness, List<String> objects, List<String> prefixes) {
  /** How narrow a plan's credential is. */
  public enum Narrowness {
    /** Exactly the plan's files. */
    OBJECTS,
    /** Directories inside the table holding the plan's files. */
    PREFIXES,
    /** Could not be narrower than the table's locations (what a table load vends). */
    TABLE
  }

  public FileScope {
    requireNonNull(narrowness, "narrowness");
    objects = List.copyOf(objects);
    prefixes = List.copyOf(prefixes);
    if ((narrowness == Narrowness.OBJECTS) == objects.isEmpty()) {
      throw new IllegalArgumentException(
          "An " + narrowness + " scope has " + objects.size() + " objects");
    }
    if (narrowness == Narrowness.OBJECTS && !prefixes.isEmpty()) {
      throw new IllegalArgumentException("An OBJECTS scope has no prefixes: " + prefixes.get(0));
    }
  }
}
