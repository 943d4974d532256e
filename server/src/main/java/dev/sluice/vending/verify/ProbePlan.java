package dev.sluice.vending.verify;

import static java.util.Objects.requireNonNull;

import dev.sluice.vending.StoreProbes;
import dev.sluice.vending.verify.Check.Expect;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Optional;

/**
 * The object checks of a self-check, in order, with a read-write ({@code rw}) and a read-only
 * ({@code ro}) credential vended for probe table {@code a}: inside {@code a} (rw writes, reads,
 * lists and deletes; ro reads and lists, and is refused writing and deleting), then both refused on
 * the sibling {@code a2}, on table {@code b}, on a bucket-wide list and, when given, on another
 * bucket.
 */
final class ProbePlan {
  private static final byte[] BYTES = "sluice self-check".getBytes(StandardCharsets.UTF_8);

  private final ProbeLayout layout;
  private final ProbeClient rw;
  private final ProbeClient ro;
  private final String fix;
  private final Optional<String> widerByDesign;
  private final List<Check> checks;

  /**
   * @param widerByDesign why the credentials cover the whole bucket by the operator's choice
   *     ({@link StoreProbes#widerByDesign}): the checks inside the bucket but outside {@code a} are
   *     then skipped with it
   */
  ProbePlan(
      ProbeLayout layout,
      ProbeClient rw,
      ProbeClient ro,
      String fix,
      Optional<String> widerByDesign,
      List<Check> checks) {
    this.layout = requireNonNull(layout, "layout");
    this.rw = requireNonNull(rw, "rw");
    this.ro = requireNonNull(ro, "ro");
    this.fix = requireNonNull(fix, "fix");
    this.widerByDesign = requireNonNull(widerByDesign, "widerByDesign");
    this.checks = requireNonNull(checks, "checks");
  }

  void run(Optional<String> otherLocation) {
    String a = layout.a();
    String written = layout.written(a, "read-write");
    allowed("read-write: write in a", rw.write(written, BYTES), "write");
    allowed("read-write: read in a", rw.read(written), "read");
    allowed("read-write: list a", rw.list(a + "/"), "list");
    allowed("read-only: read in a", ro.read(layout.seed(a)), "read");
    allowed("read-only: list a", ro.list(a + "/"), "list");
    refused(
        "read-only: write in a",
        ro.write(layout.written(a, "read-only"), BYTES),
        "the read-only credential for a could write in a: it is not read-only");
    refused(
        "read-only: delete in a",
        ro.delete(layout.doomed(a)),
        "the read-only credential for a could delete in a: it is not read-only");
    allowed("read-write: delete in a", rw.delete(written), "delete");
    if (widerByDesign.isPresent()) {
      for (String name : List.of("sibling a2", "table b", "list the whole bucket")) {
        checks.add(
            Check.skipped(
                "both: " + name, Expect.REFUSED, "not applicable: " + widerByDesign.get()));
      }
      otherBucket(otherLocation);
      return;
    }
    outside("sibling a2", layout.a2(), "a sibling prefix sharing a's name as its start");
    outside("table b", layout.b(), "another table of the catalog");
    String root = layout.bucketRoot();
    refused(
        "read-write: list the whole bucket",
        rw.list(root),
        "the read-write credential for a could list all of " + root);
    refused(
        "read-only: list the whole bucket",
        ro.list(root),
        "the read-only credential for a could list all of " + root);
    otherBucket(otherLocation);
  }

  /** Both credentials refused reading, listing, writing and deleting in {@code table}. */
  private void outside(String name, String table, String what) {
    String seed = layout.seed(table);
    String where = " in " + name + " (" + what + ")";
    refused(
        "read-only: read in " + name,
        ro.read(seed),
        "the read-only credential for a could read" + where);
    refused(
        "read-only: list " + name,
        ro.list(table + "/"),
        "the read-only credential for a could list" + where);
    refused(
        "read-write: read in " + name,
        rw.read(seed),
        "the read-write credential for a could read" + where);
    refused(
        "read-write: list " + name,
        rw.list(table + "/"),
        "the read-write credential for a could list" + where);
    refused(
        "read-write: write in " + name,
        rw.write(layout.written(table, "read-write"), BYTES),
        "the read-write credential for a could write" + where);
    refused(
        "read-write: delete in " + name,
        rw.delete(layout.doomed(table)),
        "the read-write credential for a could delete" + where);
  }

  /**
   * Another bucket the catalog's role can see: both credentials refused listing it, the writer
   * refused writing in it. Without one, a row says the check did not run.
   */
  private void otherBucket(Optional<String> otherLocation) {
    if (otherLocation.isEmpty()) {
      checks.add(
          Check.skipped(
              "both: another bucket",
              Expect.REFUSED,
              "not applicable: no otherLocation given (name a location in another bucket the"
                  + " catalog's role can see to check it)"));
      return;
    }
    String other =
        otherLocation.get().endsWith("/") ? otherLocation.get() : otherLocation.get() + "/";
    for (var entry : List.of(new Credential("read-only", ro), new Credential("read-write", rw))) {
      Observed listed = entry.client().list(other);
      String name = entry.mode() + ": list another bucket";
      if (listed.kind() == Observed.Kind.MISSING) {
        checks.add(
            Check.skipped(
                name,
                Expect.REFUSED,
                "not applicable: the store answered 404 for " + other + " (no such bucket?)"));
      } else {
        refused(name, listed, "the " + entry.mode() + " credential for a could list " + other);
      }
    }
    String probe = layout.otherWrite(other);
    Observed wrote = rw.write(probe, BYTES);
    refused(
        "read-write: write in another bucket",
        wrote,
        "the read-write credential for a could write " + probe);
    if (wrote.kind() == Observed.Kind.ALLOWED) {
      rw.delete(probe); // it could write there, so it can take its object back
    }
  }

  private record Credential(String mode, ProbeClient client) {}

  private void allowed(String name, Observed observed, String verb) {
    checks.add(
        Check.judge(
            name,
            Expect.ALLOWED,
            observed,
            "",
            "the store refused a credential to "
                + verb
                + " inside its own table: engines cannot "
                + verb
                + " with what Sluice vends (check that the role's permission policy allows it on"
                + " the catalog's allowed locations)"));
  }

  private void refused(String name, Observed observed, String misScoped) {
    checks.add(Check.judge(name, Expect.REFUSED, observed, misScoped + ". " + fix, ""));
  }
}
