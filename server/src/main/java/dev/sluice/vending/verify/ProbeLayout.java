package dev.sluice.vending.verify;

import static java.util.Objects.requireNonNull;

import java.util.List;

/**
 * Where a self-check probes: a fresh prefix ending in '/', probe tables {@code a}, its sibling
 * {@code a2} (a prefix of whose name {@code a} is: a credential matching "a*" would cover it) and
 * {@code b}, and the root of their bucket (or container).
 */
record ProbeLayout(String probe, String bucketRoot) {
  ProbeLayout {
    requireNonNull(probe, "probe");
    requireNonNull(bucketRoot, "bucketRoot");
    if (!probe.endsWith("/")) {
      throw new IllegalArgumentException("A probe prefix ends in '/': " + probe);
    }
  }

  /**
   * Where the writer tries to write in {@code other} (another bucket, named by the caller): under
   * this probe's own random folder name, so a store that wrongly allows it can only have made, and
   * then lose, an object of this probe, never overwrite one that was there.
   */
  String otherWrite(String other) {
    String folder = probe.substring(probe.lastIndexOf('/', probe.length() - 2) + 1);
    return (other.endsWith("/") ? other : other + "/") + folder + "write.bin";
  }

  String a() {
    return probe + "a";
  }

  String a2() {
    return probe + "a2";
  }

  String b() {
    return probe + "b";
  }

  /** The object the catalog's FileIO seeds in {@code table} before any credential is vended. */
  String seed(String table) {
    return table + "/data/seed.bin";
  }

  /**
   * The object a credential tries to delete in {@code table}, seeded apart from {@link #seed} so
   * that a delete the store wrongly allows does not spoil later reads.
   */
  String doomed(String table) {
    return table + "/data/delete-me.bin";
  }

  /** The object a credential tries to write in {@code table}. */
  String written(String table, String who) {
    return table + "/data/" + who + "-write.bin";
  }

  List<String> seeds() {
    return List.of(seed(a()), doomed(a()), seed(a2()), doomed(a2()), seed(b()), doomed(b()));
  }
}
