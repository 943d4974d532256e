package dev.sluice.vending.verify;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.sluice.StandardBackends;
import dev.sluice.location.LocationPolicy;
import dev.sluice.testing.CephRgw;
import dev.sluice.testing.LogCapture;
import dev.sluice.testing.NeedsTestBeds;
import dev.sluice.vending.ClientProperties;
import dev.sluice.vending.CredentialSource;
import dev.sluice.vending.StorageBackends;
import dev.sluice.vending.StorageCredential;
import dev.sluice.vending.StorageProfile;
import dev.sluice.vending.StorageTimeouts;
import dev.sluice.vending.StoreProbes;
import dev.sluice.vending.VendingService;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.apache.iceberg.io.FileIO;
import org.junit.jupiter.api.Test;

/**
 * The verifier alone on the Ceph RGW bed, with the S3 probes wrapped to record every credential
 * they are handed: not one of those key ids, secrets or session tokens appears in the report or in
 * anything logged while it ran, and a healthy catalog passes.
 */
@NeedsTestBeds
class StorageVerifierRgwTest {
  private static final ObjectMapper JSON = new ObjectMapper();

  @Test
  void noVendedSecretInTheReportOrTheLog() throws Exception {
    CephRgw rgw = CephRgw.bed();
    String bucket = rgw.newBucket("verifier");
    StorageBackends backends = StandardBackends.create();
    Map<String, CredentialSource> sources =
        Map.of(
            "rgw",
            backends.parseSource(
                "rgw",
                Map.of(
                    "type", "static",
                    "accessKeyId", rgw.accessKey(),
                    "secretAccessKey", rgw.secretKey())));
    String base = "s3://" + bucket + "/wh";
    ObjectNode info = JSON.createObjectNode();
    info.put("storageType", "S3");
    info.putArray("allowedLocations").add(base);
    info.put("roleArn", rgw.roleArn());
    info.put("region", rgw.region());
    info.put("endpoint", rgw.endpoint());
    info.put("pathStyleAccess", true);
    info.put("credentialSource", "rgw");
    info.put("durationSeconds", 900);
    StorageProfile profile = backends.parse("direct", info, base, sources, 1).profile();
    Recording probes = new Recording(backends.probes(profile).orElseThrow());
    VerifyReport report;
    List<String> logged;
    try (VendingService vending =
            new VendingService(
                backends,
                sources,
                Duration.ofMinutes(5),
                100,
                new SimpleMeterRegistry(),
                StorageTimeouts.Provider.DEFAULT);
        FileIO io = backends.openCatalogIO(profile, sources, StorageTimeouts.CatalogIo.DEFAULT);
        LogCapture log = new LogCapture()) {
      report =
          new StorageVerifier(vending, probes)
              .verify(
                  new StorageVerifier.Target(
                      profile,
                      new LocationPolicy("direct", List.of(base)),
                      base,
                      io,
                      "tester",
                      Optional.empty(),
                      rgw.stsMinDurationSeconds()));
      logged = log.messages();
    }
    assertThat(report.verdict()).as(report.toString()).isEqualTo(VerifyReport.Verdict.PASS);
    assertThat(report.failed()).isZero();
    // rw, ro, the refresh and the short-lived one.
    assertThat(probes.opened).hasSize(4);
    String everything = report.toString() + String.join("\n", logged);
    assertThat(logged).anyMatch(line -> line.contains("Storage self-check of catalog direct"));
    for (StorageCredential credential : probes.opened) {
      for (String key :
          List.of(
              ClientProperties.S3_ACCESS_KEY_ID,
              ClientProperties.S3_SECRET_ACCESS_KEY,
              ClientProperties.S3_SESSION_TOKEN)) {
        String secret = credential.config().get(key);
        assertThat(secret).isNotBlank();
        assertThat(everything).as(key).doesNotContain(secret);
      }
    }
    assertThat(everything).doesNotContain(rgw.secretKey()).doesNotContain(rgw.accessKey());
  }

  /** The backend's probes, recording each credential they open a FileIO for. */
  private static final class Recording implements StoreProbes {
    private final StoreProbes delegate;
    final List<StorageCredential> opened = new ArrayList<>();

    Recording(StoreProbes delegate) {
      this.delegate = delegate;
    }

    @Override
    public FileIO open(StorageCredential credential) {
      opened.add(credential);
      return delegate.open(credential);
    }

    @Override
    public Optional<StoreAnswer> answer(Throwable error) {
      return delegate.answer(error);
    }

    @Override
    public Optional<StorageProfile> withLifetime(StorageProfile profile, int seconds) {
      return delegate.withLifetime(profile, seconds);
    }

    @Override
    public String whereToFix(StorageProfile profile) {
      return delegate.whereToFix(profile);
    }
  }
}
