package dev.sluice.vending.azure;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.sluice.StandardBackends;
import dev.sluice.location.LocationPolicy;
import dev.sluice.testing.AzuriteBed;
import dev.sluice.testing.NeedsTestBeds;
import dev.sluice.vending.CredentialSource;
import dev.sluice.vending.CredentialSourceType;
import dev.sluice.vending.CredentialVendor;
import dev.sluice.vending.StorageBackend;
import dev.sluice.vending.StorageBackends;
import dev.sluice.vending.StorageProfile;
import dev.sluice.vending.StorageTimeouts;
import dev.sluice.vending.StoreProbes;
import dev.sluice.vending.VendingService;
import dev.sluice.vending.VendorMetrics;
import dev.sluice.vending.verify.Check;
import dev.sluice.vending.verify.StorageVerifier;
import dev.sluice.vending.verify.VerifyReport;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import org.apache.iceberg.io.FileIO;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The storage self-check of an Azure catalog against the real Azurite (fails, never skips, without
 * the bed), through the verifier with the real {@link AzureProbes}: Azurite's own refusals on the
 * negative rows. Azurite enforces container SAS scope, permissions and expiry; it does not
 * understand a directory SAS (refuses it outright) and lacks Data Lake List Paths (a bare 400), so
 * the list rows are skipped as not applicable, never passed. A healthy catalog is therefore a flat,
 * container-scoped one, whose rows inside its container are not applicable by design; the
 * mis-scoped catalog says hierarchical namespace (a directory SAS per table) but its vendor, by a
 * test-only backend, signs container SAS: it fails on exactly the rows inside the container.
 */
@NeedsTestBeds
class AzureSelfCheckTest {
  private static final ObjectMapper JSON = new ObjectMapper();
  private static AzuriteBed bed;
  private static Map<String, CredentialSource> sources;

  @BeforeAll
  static void bed() {
    bed = AzuriteBed.bed().installAsDefault();
    sources =
        Map.of(
            "azure",
            AzureCredentialSource.of(
                "azure", "azure-client-secret", bed.tokenCredential(), bed.blobEndpoint()));
  }

  private static StorageProfile profile(StorageBackends backends, String base, boolean hns) {
    ObjectNode info = JSON.createObjectNode();
    info.put("storageType", "AZURE");
    info.putArray("allowedLocations").add(base);
    info.put("credentialSource", "azure");
    info.put("durationSeconds", 900);
    info.put("hierarchicalNamespace", hns);
    info.put("allowContainerScope", !hns);
    return backends.parse("azcheck", info, base, sources, 1).profile();
  }

  private static VerifyReport verify(StorageBackends backends, boolean hns) throws Exception {
    String container = bed.newContainer("verify");
    String other = bed.newContainer("verify-other");
    String base = bed.abfss(container, "wh");
    StorageProfile profile = profile(backends, base, hns);
    // Azurite lacks the Data Lake delete the verifier cleans up with: the bed's admin removes the
    // containers (on Azure the verifier's own cleanup answers "done").
    try (VendingService vending =
            new VendingService(
                backends,
                sources,
                Duration.ofMinutes(5),
                100,
                new SimpleMeterRegistry(),
                StorageTimeouts.Provider.DEFAULT);
        FileIO io = backends.openCatalogIO(profile, sources, StorageTimeouts.CatalogIo.DEFAULT)) {
      return new StorageVerifier(vending, backends.probes(profile).orElseThrow())
          .verify(
              new StorageVerifier.Target(
                  profile,
                  new LocationPolicy("azcheck", List.of(base)),
                  base,
                  io,
                  "tester",
                  Optional.of(bed.abfss(other, "")),
                  1));
    } finally {
      bed.adminClient().deleteBlobContainer(container);
      bed.adminClient().deleteBlobContainer(other);
    }
  }

  private static Check row(VerifyReport report, String name) {
    return report.checks().stream()
        .filter(c -> c.name().equals(name))
        .findFirst()
        .orElseThrow(() -> new AssertionError("no row " + name + " in " + report));
  }

  private static List<String> named(VerifyReport report, Check.Outcome outcome) {
    List<String> names = new ArrayList<>();
    report.checks().stream().filter(c -> c.outcome() == outcome).forEach(c -> names.add(c.name()));
    return names;
  }

  @Test
  void healthyContainerScopedCatalogPassesEveryApplicableRowOnAzuritesRefusals() throws Exception {
    VerifyReport report = verify(StandardBackends.create(), false);
    assertThat(report.verdict()).as(report.toString()).isEqualTo(VerifyReport.Verdict.PASS);
    assertThat(report.failed()).as(report.toString()).isZero();
    assertThat(named(report, Check.Outcome.PASS))
        .as(report.toString())
        .containsExactlyInAnyOrder(
            "read-write: write in a",
            "read-write: read in a",
            "read-only: read in a",
            "read-only: write in a",
            "read-only: delete in a",
            "read-write: delete in a",
            "read-write: write in another bucket",
            "refresh: new read-only credential reads in a",
            "expired read-only credential reads in a");
    // Each negative row passed on Azurite's own 403 with an Azure error code, not a guess.
    for (Check check : report.checks()) {
      if (check.passed() && check.expected() == Check.Expect.REFUSED) {
        assertThat(check.status()).as(check.toString()).isEqualTo(403);
        assertThat(check.code()).as(check.toString()).isNotBlank();
      }
    }
    // What Azurite cannot show is skipped and says why; nothing of it passed.
    Check list = row(report, "read-write: list a");
    assertThat(list.outcome()).as(list.toString()).isEqualTo(Check.Outcome.SKIPPED);
    assertThat(list.status()).isEqualTo(400);
    assertThat(list.explanation()).startsWith("not applicable: ").contains("Azurite");
    Check sibling = row(report, "both: sibling a2");
    assertThat(sibling.outcome()).isEqualTo(Check.Outcome.SKIPPED);
    assertThat(sibling.explanation())
        .startsWith("not applicable: ")
        .contains("allowContainerScope: true");
    assertThat(named(report, Check.Outcome.SKIPPED))
        .containsExactlyInAnyOrder(
            "read-write: list a",
            "read-only: list a",
            "both: sibling a2",
            "both: table b",
            "both: list the whole bucket",
            "read-only: list another bucket",
            "read-write: list another bucket");
  }

  @Test
  void directoryScopedCatalogWhoseVendorSignsContainerSasFailsInsideTheContainer()
      throws Exception {
    VerifyReport report = verify(new StorageBackends(List.of(new ContainerSasAzure())), true);
    assertThat(report.verdict()).as(report.toString()).isEqualTo(VerifyReport.Verdict.FAIL);
    List<String> failed = named(report, Check.Outcome.FAIL);
    assertThat(failed)
        .as(report.toString())
        .containsExactlyInAnyOrder(
            "read-only: read in sibling a2",
            "read-write: read in sibling a2",
            "read-write: write in sibling a2",
            "read-write: delete in sibling a2",
            "read-only: read in table b",
            "read-write: read in table b",
            "read-write: write in table b",
            "read-write: delete in table b");
    for (String name : failed) {
      Check check = row(report, name);
      assertThat(check.expected()).isEqualTo(Check.Expect.REFUSED);
      assertThat(check.observed()).isEqualTo("allowed");
      assertThat(check.explanation())
          .as(check.toString())
          .startsWith("MIS-SCOPED: ")
          .contains("Where to fix")
          .contains("sr=d")
          .contains("hierarchical namespace");
    }
    // What must work still works, and the other container still refuses.
    for (String name :
        List.of(
            "read-write: write in a",
            "read-only: write in a",
            "read-only: delete in a",
            "read-write: write in another bucket",
            "expired read-only credential reads in a")) {
      assertThat(row(report, name).outcome()).as(name).isEqualTo(Check.Outcome.PASS);
    }
  }

  /**
   * Azure as the standard backend, except that its vendor signs a container SAS for a catalog whose
   * profile asks for a directory SAS per table: the mis-scoping the self-check must catch.
   */
  private static final class ContainerSasAzure implements StorageBackend<AzureStorageProfile> {
    @Override
    public Set<String> configKeys() {
      return azure.configKeys();
    }

    private final AzureBackend azure = new AzureBackend();

    @Override
    public String storageType() {
      return azure.storageType();
    }

    @Override
    public Class<AzureStorageProfile> profileType() {
      return azure.profileType();
    }

    @Override
    public Set<String> schemes() {
      return azure.schemes();
    }

    @Override
    public List<CredentialSourceType> credentialSourceTypes() {
      return azure.credentialSourceTypes();
    }

    @Override
    public AzureStorageProfile parse(Input input) {
      return azure.parse(input);
    }

    @Override
    public Optional<StoreProbes> probes() {
      return azure.probes();
    }

    @Override
    public Optional<CredentialVendor> openVendor(
        AzureStorageProfile p,
        CredentialSource source,
        VendorMetrics metrics,
        StorageTimeouts.Provider timeouts) {
      AzureStorageProfile containerScoped =
          new AzureStorageProfile(
              p.catalog(),
              p.allowedLocations(),
              p.credentialSourceName(),
              p.tenantId(),
              p.durationSeconds(),
              p.hierarchicalNamespace(),
              true,
              p.vendOnlyOnRequest());
      return azure.openVendor(containerScoped, source, metrics, timeouts);
    }

    @Override
    public FileIO openCatalogIO(
        AzureStorageProfile p, CredentialSource source, StorageTimeouts.CatalogIo timeouts) {
      return azure.openCatalogIO(p, source, timeouts);
    }
  }
}
