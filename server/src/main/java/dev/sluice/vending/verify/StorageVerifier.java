package dev.sluice.vending.verify;

import static java.util.Objects.requireNonNull;

import dev.sluice.location.LocationPolicy;
import dev.sluice.location.StorageLocation;
import dev.sluice.vending.AccessMode;
import dev.sluice.vending.CredentialVendor;
import dev.sluice.vending.Delegation;
import dev.sluice.vending.StorageCredential;
import dev.sluice.vending.StorageProfile;
import dev.sluice.vending.StoreProbes;
import dev.sluice.vending.VendingException;
import dev.sluice.vending.VendingRequest;
import dev.sluice.vending.VendingService;
import dev.sluice.vending.verify.Check.Expect;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.security.SecureRandom;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.SortedMap;
import java.util.TreeMap;
import org.apache.iceberg.io.FileIO;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The storage self-check: proves against the real store that what a catalog vends is as narrow as
 * Sluice asks. Works in a fresh probe prefix under the catalog's base location, with probe tables
 * {@code a}, its sibling {@code a2} and {@code b}; seeds one object in each with the catalog's own
 * FileIO, vends a read-write and a read-only credential for {@code a} through the catalog's vendor
 * (never the cache), and probes with engine-side FileIOs holding only those credentials (see {@link
 * ProbePlan} for the checks). Removes the probe prefix afterwards with the catalog's FileIO.
 * Generic: a backend contributes only its {@link StoreProbes}.
 */
public final class StorageVerifier {
  private static final Logger LOG = LoggerFactory.getLogger(StorageVerifier.class);
  private static final SecureRandom RANDOM = new SecureRandom();
  static final String PROBE_PREFIX = "sluice-verify-";
  static final String PROBE_NAMESPACE = "sluice-verify";

  /** Longest credential lifetime the expiry check waits out; longer minimums skip it. */
  static final int MAX_EXPIRY_WAIT_SECONDS = 15;

  private final VendingService vending;
  private final StoreProbes probes;

  public StorageVerifier(VendingService vending, StoreProbes probes) {
    this.vending = requireNonNull(vending, "vending");
    this.probes = requireNonNull(probes, "probes");
  }

  /**
   * What to check: the catalog's profile and location policy, its base location (the probe prefix
   * goes under it), its own FileIO (confined to its allowed locations), who asks (attributed in the
   * credentials), optionally a location in another bucket the catalog's role can see, and the
   * shortest credential lifetime the server allows.
   */
  public record Target(
      StorageProfile profile,
      LocationPolicy policy,
      String baseLocation,
      FileIO catalogIO,
      String principal,
      Optional<String> otherLocation,
      int minLifetimeSeconds) {
    public Target {
      requireNonNull(profile, "profile");
      requireNonNull(policy, "policy");
      requireNonNull(baseLocation, "baseLocation");
      requireNonNull(catalogIO, "catalogIO");
      requireNonNull(principal, "principal");
      requireNonNull(otherLocation, "otherLocation");
    }
  }

  public VerifyReport verify(Target target) {
    return verify(target, true);
  }

  /**
   * The self-check of a namespace's storage identity: {@code target} holds the profile that vends
   * as that identity and the namespace's location as its base, so the probe tables lie where the
   * identity's tables do (its role may reach nothing else). The same rows as the catalog's, but for
   * expiry, which belongs to the store and is proved once with the catalog's own identity.
   */
  public VerifyReport verifyIdentity(Target target) {
    return verify(target, false);
  }

  private VerifyReport verify(Target target, boolean expiry) {
    String base = target.baseLocation();
    String probe =
        (base.endsWith("/") ? base : base + "/")
            + PROBE_PREFIX
            + HexFormat.of().formatHex(bytes(6))
            + "/";
    ProbeLayout layout = new ProbeLayout(probe, bucketRoot(base));
    List<Check> checks = new ArrayList<>();
    try {
      run(target, layout, checks, expiry);
    } catch (RuntimeException e) {
      // Never half an answer: an unexpected failure is a failed row, not a 500 with the probe left.
      LOG.warn(
          "Storage self-check of catalog {} stopped: {}",
          target.profile().catalog(),
          e.getClass().getSimpleName());
      checks.add(
          Check.failed(
              "self-check completes",
              Expect.ALLOWED,
              "stopped (" + e.getClass().getSimpleName() + ")",
              "the check stopped early; the rows above are what it observed"));
    }
    String cleanup = cleanup(target.catalogIO(), layout.probe());
    VerifyReport report =
        new VerifyReport(
            target.profile().catalog(), target.profile().storageType(), probe, checks, cleanup);
    LOG.info(
        "Storage self-check of catalog {}{} ({}): {} ({} passed, {} failed, {} skipped; cleanup"
            + " {})",
        report.catalog(),
        target.profile().identityScope().isEmpty()
            ? ""
            : ", storage identity of namespace " + target.profile().identityScope(),
        report.storageType(),
        report.verdict(),
        report.passed(),
        report.failed(),
        report.skipped(),
        cleanup);
    return report;
  }

  private void run(Target target, ProbeLayout layout, List<Check> checks, boolean expiry) {
    for (String seed : layout.seeds()) {
      Optional<String> failed = seed(target.catalogIO(), seed);
      if (failed.isPresent()) {
        checks.add(
            Check.failed(
                "seed probe objects with the catalog's own storage access",
                Expect.ALLOWED,
                failed.get(),
                "the catalog's own credential source cannot write under its base location "
                    + target.baseLocation()
                    + "; nothing else was checked"));
        return;
      }
    }
    Set<Delegation.Kind> offered = target.profile().offered();
    boolean signs = offered.contains(Delegation.Kind.REMOTE_SIGNING);
    boolean signingOnly = signs && !offered.contains(Delegation.Kind.VENDED_CREDENTIALS);
    if (signs && !signingScoped(target, layout, checks, signingOnly)) {
      return;
    }
    // A catalog that only signs is proven through the identity it signs with: credentials of the
    // same shape as vended ones, which never leave the server.
    String what = signingOnly ? "signing identity" : "vend";
    Optional<StorageCredential> writer =
        credential(target, layout.a(), AccessMode.READ_WRITE, what + " read-write for a", checks);
    Optional<StorageCredential> reader =
        credential(target, layout.a(), AccessMode.READ, what + " read-only for a", checks);
    if (writer.isEmpty() || reader.isEmpty()) {
      return;
    }
    String fix = probes.whereToFix(target.profile());
    try (ProbeClient rw = new ProbeClient(probes.open(writer.get()), probes);
        ProbeClient ro = new ProbeClient(probes.open(reader.get()), probes)) {
      new ProbePlan(layout, rw, ro, fix, probes.widerByDesign(target.profile()), checks)
          .run(target.otherLocation());
    }
    if (signingOnly) {
      checks.add(
          Check.skipped(
              "refresh and expiry of vended credentials",
              Expect.REFUSED,
              "not applicable: the catalog only signs; its identities never leave the server, and"
                  + " each signature lives signatureLifetimeSeconds"));
      return;
    }
    refresh(target, layout, checks);
    if (expiry) {
      expiry(target, layout, checks);
    } else {
      checks.add(
          Check.skipped(
              "expired read-only credential reads in a",
              Expect.REFUSED,
              "not repeated: the store's expiry is checked with the catalog's own identity"));
    }
  }

  /**
   * For a catalog that signs: whether its signatures are made with an identity the store confines.
   * An unscoped signer (the operator's {@code unscopedSigning}) is a skipped row, never a pass, and
   * a catalog that only signs that way has nothing else to prove. A scoped one that also vends is
   * checked here on two reads; one that only signs is checked by the whole plan.
   */
  private boolean signingScoped(
      Target target, ProbeLayout layout, List<Check> checks, boolean signingOnly) {
    String name = "remote signing: signed with an identity the store confines to the table";
    if (!vending.signsScoped(target.profile())) {
      checks.add(
          Check.skipped(
              name,
              Expect.REFUSED,
              "UNSCOPED: the catalog has no identity the store could confine signatures to (S3"
                  + " without a role or STS); it signs as its credential source only where a"
                  + " service admin accepted that (storageConfigInfo.unscopedSigning), and then"
                  + " the store refuses nothing a client adds after signing: only Sluice's request"
                  + " parser confines signatures (see docs/S3-VENDING.md, Remote signing)"));
      return !signingOnly;
    }
    if (signingOnly) {
      // Proven by the whole plan, run on identities of the same vendor.
      return true;
    }
    StorageCredential identity;
    try {
      identity =
          vending
              .signingIdentityUncached(
                  target.profile(),
                  target.policy(),
                  layout.a(),
                  AccessMode.READ,
                  attribution(target, layout.a()))
              .orElseThrow() // the signer has a scoped vendor: signsScoped said so
              .get(0);
    } catch (VendingException e) {
      checks.add(Check.failed(name, Expect.REFUSED, "refused", e.getMessage()));
      return true;
    }
    try (ProbeClient signer = new ProbeClient(probes.open(identity), probes)) {
      checks.add(
          Check.judge(
              "remote signing: the signing identity for a reads in a",
              Expect.ALLOWED,
              signer.read(layout.seed(layout.a())),
              "",
              "the identity signatures are made with cannot read its own table"));
      checks.add(
          Check.judge(
              "remote signing: the signing identity for a reads in b",
              Expect.REFUSED,
              signer.read(layout.seed(layout.b())),
              "a request signed for table a, with any header added after signing, can reach table"
                  + " b: "
                  + probes.whereToFix(target.profile()),
              ""));
    }
    return true;
  }

  private Optional<StorageCredential> credential(
      Target target, String table, AccessMode mode, String name, List<Check> checks) {
    if (target.profile().offered().contains(Delegation.Kind.VENDED_CREDENTIALS)) {
      return vend(target, table, mode, name, checks);
    }
    try {
      return vending
          .signingIdentityUncached(
              target.profile(), target.policy(), table, mode, attribution(target, table))
          .flatMap(c -> c.stream().filter(one -> covers(one.prefix(), table)).findFirst());
    } catch (VendingException e) {
      checks.add(Check.failed(name, Expect.ALLOWED, "refused", e.getMessage()));
      return Optional.empty();
    }
  }

  /** Vends again (the refresh an engine makes) and reads with the new credential. */
  private void refresh(Target target, ProbeLayout layout, List<Check> checks) {
    Optional<StorageCredential> again =
        vend(target, layout.a(), AccessMode.READ, "refresh: vend again for a", checks);
    if (again.isEmpty()) {
      return;
    }
    try (ProbeClient client = new ProbeClient(probes.open(again.get()), probes)) {
      checks.add(
          Check.judge(
              "refresh: new read-only credential reads in a",
              Expect.ALLOWED,
              client.read(layout.seed(layout.a())),
              "",
              "a refreshed credential cannot read its own table"));
    }
  }

  /** A credential past its expiry must be refused, where the store allows sessions this short. */
  private void expiry(Target target, ProbeLayout layout, List<Check> checks) {
    String name = "expired read-only credential reads in a";
    int seconds = Math.max(1, target.minLifetimeSeconds());
    if (seconds > MAX_EXPIRY_WAIT_SECONDS) {
      checks.add(
          Check.skipped(
              name,
              Expect.REFUSED,
              "skipped: minimum session "
                  + seconds
                  + " s (storage.vendingMinDurationSeconds), longer than this check waits"));
      return;
    }
    Optional<StorageProfile> shortProfile = probes.withLifetime(target.profile(), seconds);
    Optional<CredentialVendor> vendor =
        shortProfile.isEmpty() ? Optional.empty() : vending.openVendor(shortProfile.get());
    if (vendor.isEmpty()) {
      checks.add(
          Check.skipped(name, Expect.REFUSED, "skipped: this backend cannot shorten credentials"));
      return;
    }
    try (CredentialVendor shortVendor = vendor.get()) {
      StorageCredential credential;
      try {
        credential =
            shortVendor.vend(request(target, layout.a(), AccessMode.READ)).stream()
                .findFirst()
                .orElseThrow();
      } catch (VendingException e) {
        checks.add(
            Check.skipped(
                name,
                Expect.REFUSED,
                "skipped: the store refused a "
                    + seconds
                    + " s session (HTTP "
                    + e.providerStatus()
                    + "); its minimum session is longer"));
        return;
      }
      long wait = credential.expiresAtMs() - System.currentTimeMillis() + 1_500;
      try (ProbeClient client = new ProbeClient(probes.openPastExpiry(credential), probes)) {
        if (wait > (MAX_EXPIRY_WAIT_SECONDS + 5) * 1000L) {
          checks.add(
              Check.skipped(
                  name,
                  Expect.REFUSED,
                  "skipped: the store issued a credential living "
                      + (wait / 1000)
                      + " s although "
                      + seconds
                      + " s were asked for"));
          return;
        }
        sleep(wait);
        checks.add(
            Check.judge(
                name,
                Expect.REFUSED,
                client.read(layout.seed(layout.a())),
                "a credential past its expiry still works: the store does not enforce session"
                    + " expiry (check its clock and version)",
                ""));
      }
    }
  }

  private Optional<StorageCredential> vend(
      Target target, String table, AccessMode mode, String name, List<Check> checks) {
    List<StorageCredential> vended;
    try {
      vended =
          vending.vendUncached(
              target.profile(), target.policy(), table, mode, attribution(target, table));
    } catch (VendingException e) {
      checks.add(
          Check.failed(
              name,
              Expect.ALLOWED,
              "refused" + (e.providerStatus() > 0 ? " (HTTP " + e.providerStatus() + ")" : ""),
              "vending failed: " + e.getMessage()));
      return Optional.empty();
    }
    Optional<StorageCredential> covering =
        vended.stream().filter(c -> covers(c.prefix(), table)).findFirst();
    if (covering.isEmpty()) {
      checks.add(
          Check.failed(
              name,
              Expect.ALLOWED,
              vended.isEmpty() ? "nothing vended" : "no credential for the probe table",
              "the catalog vends no credential for a table under its base location (see the"
                  + " server log for why)"));
    }
    return covering;
  }

  private static boolean covers(String prefix, String location) {
    return StorageLocation.parse(prefix).covers(StorageLocation.parse(location));
  }

  private static VendingRequest request(Target target, String table, AccessMode mode) {
    SortedMap<String, String> attribution = attribution(target, table);
    return new VendingRequest(table, List.of(table), mode, target.principal(), attribution);
  }

  private static SortedMap<String, String> attribution(Target target, String table) {
    SortedMap<String, String> attribution = new TreeMap<>();
    attribution.put("principal", target.principal());
    attribution.put("catalog", target.profile().catalog());
    attribution.put("namespace", PROBE_NAMESPACE);
    attribution.put("table", PROBE_NAMESPACE + "." + table.substring(table.lastIndexOf('/') + 1));
    return attribution;
  }

  private static Optional<String> seed(FileIO io, String location) {
    try (OutputStream out = io.newOutputFile(location).createOrOverwrite()) {
      out.write(("sluice storage self-check " + location).getBytes(StandardCharsets.UTF_8));
      return Optional.empty();
    } catch (Exception e) {
      return Optional.of("failed (" + e.getClass().getSimpleName() + ")");
    }
  }

  /** Removes the probe prefix with the catalog's own FileIO; says how it went. */
  private static String cleanup(FileIO io, String probe) {
    try {
      ((org.apache.iceberg.io.SupportsPrefixOperations) io).deletePrefix(probe);
      var left = ((org.apache.iceberg.io.SupportsPrefixOperations) io).listPrefix(probe);
      return left.iterator().hasNext() ? "FAILED: objects remain under " + probe : "done";
    } catch (Exception e) {
      LOG.warn("Cleaning up the self-check probe {} failed: {}", probe, e.toString());
      return "FAILED (" + e.getClass().getSimpleName() + "): remove " + probe + " by hand";
    }
  }

  private static String bucketRoot(String location) {
    StorageLocation parsed = StorageLocation.parse(location);
    return parsed.scheme() + "://" + parsed.authority() + "/";
  }

  private static byte[] bytes(int n) {
    byte[] out = new byte[n];
    RANDOM.nextBytes(out);
    return out;
  }

  private static void sleep(long ms) {
    if (ms <= 0) {
      return;
    }
    try {
      Thread.sleep(ms);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException("interrupted while waiting for a credential to expire", e);
    }
  }
}
