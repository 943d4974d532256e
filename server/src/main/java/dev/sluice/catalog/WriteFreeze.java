package dev.sluice.catalog;

import java.util.List;
import java.util.Map;
import org.apache.iceberg.MetadataUpdate;
import org.apache.iceberg.exceptions.ForbiddenException;

/**
 * A table's or view's write freeze: while its current metadata carries the property {@link #KEY}
 * (its value a free-text reason, such as where the table moved to), every commit to it is refused,
 * except the one that only removes the property, and so are its drop and rename. A migration sets
 * it on the source catalog's copy so that two catalogs never both write one table.
 *
 * <p>Checked against the metadata a commit is based on; the pointer's compare-and-set then fails a
 * commit that raced with the freeze, and its retry sees the frozen base.
 */
public final class WriteFreeze {
  /** The property; its value says why (e.g. where the table moved to). */
  public static final String KEY = "sluice.write-frozen";

  private WriteFreeze() {}

  /**
   * Refuses a commit to {@code what} whose base carries the freeze, unless its {@code changes} only
   * remove the property.
   */
  static void checkCommit(String what, Map<String, String> base, List<MetadataUpdate> changes) {
    String reason = base.get(KEY);
    if (reason == null || onlyUnfreezes(changes)) {
      return;
    }
    throw new ForbiddenException(
        "Cannot commit to %s: it is frozen for writes (property '%s': %s); a commit that only"
            + " removes '%s' unfreezes it",
        what, KEY, reason, KEY);
  }

  /** Refuses to {@code action} ("drop", "rename") {@code what} while its metadata carries it. */
  static void checkUnfrozen(String action, String what, Map<String, String> properties) {
    String reason = properties.get(KEY);
    if (reason != null) {
      throw new ForbiddenException(
          "Cannot %s %s: it is frozen for writes (property '%s': %s); remove '%s' first",
          action, what, KEY, reason, KEY);
    }
  }

  private static boolean onlyUnfreezes(List<MetadataUpdate> changes) {
    if (changes.isEmpty()) {
      return false;
    }
    for (MetadataUpdate change : changes) {
      if (!(change instanceof MetadataUpdate.RemoveProperties remove)
          || !remove.removed().stream().allMatch(KEY::equals)) {
        return false;
      }
    }
    return true;
  }
}
