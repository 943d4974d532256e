package dev.sluice.vending.gcs;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;

import com.google.auth.oauth2.GoogleCredentials;
import com.google.auth.oauth2.ServiceAccountCredentials;
import com.google.cloud.storage.StorageException;
import dev.sluice.testing.gcp.GoogleCloudFake;
import dev.sluice.vending.AccessMode;
import dev.sluice.vending.StorageCredential;
import dev.sluice.vending.StoreProbes.StoreAnswer;
import dev.sluice.vending.VendingRequest;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import org.apache.iceberg.io.FileIO;
import org.apache.iceberg.io.FileInfo;
import org.apache.iceberg.io.SupportsPrefixOperations;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The GCS part of the self-check: Google's refusals read from the exceptions a real GCSFileIO
 * throws (against the loopback {@link GoogleCloudFake}, tokens from the real vendor), the shorter
 * profile, and where to fix.
 */
class GcsProbesTest {
  private static final String SA = "vendor@lakehouse.iam.gserviceaccount.com";
  private static final String TABLE = "gs://lake/wh/t";

  @TempDir Path dir;
  private final GcsProbes probes = new GcsProbes();
  private GoogleCloudFake fake;
  private GcsCredentialVendor vendor;

  @BeforeEach
  void start() throws Exception {
    fake = GoogleCloudFake.start();
    fake.createBucket("lake");
    fake.put("lake", "wh/t2/x.bin", new byte[] {1});
    Path key =
        fake.addServiceAccount(SA, "lakehouse", Set.of("lake")).writeKeyFile(dir.resolve("k.json"));
    GoogleCredentials source;
    try (InputStream in = Files.newInputStream(key)) {
      source =
          ServiceAccountCredentials.fromStream(in)
              .createScoped("https://www.googleapis.com/auth/cloud-platform");
    }
    vendor = new GcsCredentialVendor(profile(null), source, "lakehouse", fake.endpoint(), d -> {});
  }

  @AfterEach
  void stop() {
    fake.close();
  }

  private static GcsStorageProfile profile(String serviceAccount) {
    return new GcsStorageProfile(
        "c", List.of("gs://lake/wh"), "gcp", serviceAccount, 3600, null, false);
  }

  private StorageCredential vend(AccessMode mode) {
    return vendor
        .vend(new VendingRequest(TABLE, List.of(TABLE), mode, "p", new TreeMap<>()))
        .get(0);
  }

  /** Google's answer as the self-check finds it: the first in the cause chain. */
  private Optional<StoreAnswer> answerIn(Throwable error) {
    for (Throwable t = error; t != null; t = t.getCause()) {
      Optional<StoreAnswer> answer = probes.answer(t);
      if (answer.isPresent()) {
        return answer;
      }
    }
    return Optional.empty();
  }

  @Test
  void googlesRefusalsAreReadFromGcsFileIosExceptions() throws Exception {
    try (FileIO reader = probes.open(vend(AccessMode.READ))) {
      Throwable write =
          catchThrowable(
              () -> {
                try (OutputStream out =
                    reader.newOutputFile(TABLE + "/x.bin").createOrOverwrite()) {
                  out.write(1);
                }
              });
      Throwable read =
          catchThrowable(
              () -> {
                try (InputStream in = reader.newInputFile("gs://lake/wh/t2/x.bin").newStream()) {
                  in.read();
                }
              });
      Throwable list =
          catchThrowable(
              () -> {
                for (FileInfo ignored :
                    ((SupportsPrefixOperations) reader).listPrefix("gs://lake/")) {
                  break;
                }
              });
      Throwable delete = catchThrowable(() -> reader.deleteFile("gs://lake/wh/t2/x.bin"));
      assertThat(answerIn(write)).contains(new StoreAnswer(403, "forbidden"));
      assertThat(answerIn(read)).contains(new StoreAnswer(403, "forbidden"));
      assertThat(answerIn(list)).contains(new StoreAnswer(403, "forbidden"));
      assertThat(answerIn(delete)).contains(new StoreAnswer(403, "forbidden"));
    }
    assertThat(fake.refusals()).hasSize(4);
    // Not Google's answer: a transport failure, a wrapper (the caller walks the chain).
    assertThat(probes.answer(new StorageException(0, "connection refused"))).isEmpty();
    assertThat(probes.answer(new UncheckedIOException(new java.io.IOException("x")))).isEmpty();
  }

  /**
   * An engine's GCSFileIO never sends a token it knows expired (google-auth refuses before any
   * request); the expiry probe's FileIO sends it, and reads Google's 401.
   */
  @Test
  void anExpiredTokenReachesGoogleOnlyThroughTheExpiryProbe() throws Exception {
    fake.put("lake", "wh/t/x.bin", new byte[] {1});
    StorageCredential vended = vend(AccessMode.READ);
    Map<String, String> config = new HashMap<>(vended.config());
    config.put("gcs.oauth2.token-expires-at", Long.toString(System.currentTimeMillis() - 1000));
    StorageCredential expired =
        new StorageCredential(vended.prefix(), config, System.currentTimeMillis() - 1000);
    fake.expireNow(config.get("gcs.oauth2.token"));
    int before = fake.refusals().size();
    try (FileIO engine = probes.open(expired)) {
      Throwable refused = catchThrowable(() -> read(engine, TABLE + "/x.bin"));
      assertThat(refused).isNotNull();
      assertThat(answerIn(refused)).as("refused by the client, not Google").isEmpty();
    }
    assertThat(fake.refusals()).hasSize(before);
    try (FileIO probe = probes.openPastExpiry(expired)) {
      Throwable refused = catchThrowable(() -> read(probe, TABLE + "/x.bin"));
      assertThat(answerIn(refused)).contains(new StoreAnswer(401, "authError"));
    }
    assertThat(fake.refusals()).hasSize(before + 1);
    assertThat(fake.refusals().get(before).reason()).isEqualTo("expired token");
  }

  @Test
  void theErrorReasonIsReadFromAJsonApiBody() {
    assertThat(
            GcsProbes.reason(
                "{\"error\":{\"code\":403,\"message\":\"m\",\"errors\":[{\"message\":\"m\","
                    + "\"domain\":\"global\",\"reason\":\"forbidden\"}]}}"))
        .isEqualTo("forbidden");
    assertThat(GcsProbes.reason("<html>bad gateway</html>")).isNull();
    assertThat(GcsProbes.reason("{\"error\":{\"code\":403}}")).isNull();
    assertThat(GcsProbes.reason("")).isNull();
  }

  @Test
  void onlyAnImpersonatingProfileCanBeShortened() {
    assertThat(probes.withLifetime(profile(null), 3)).isEmpty();
    GcsStorageProfile impersonating = profile("short@lakehouse.iam.gserviceaccount.com");
    GcsStorageProfile shorter =
        (GcsStorageProfile) probes.withLifetime(impersonating, 3).orElseThrow();
    assertThat(shorter.durationSeconds()).isEqualTo(3);
    assertThat(shorter.withDuration(3600)).isEqualTo(impersonating);
  }

  @Test
  void whereToFixNamesTheAccountTheBoundaryAndTheLocations() {
    assertThat(probes.whereToFix(profile("short@lakehouse.iam.gserviceaccount.com")))
        .startsWith("Where to fix: ")
        .contains("Credential Access Boundary")
        .contains("service account short@lakehouse.iam.gserviceaccount.com (gcsServiceAccount)")
        .contains("[gs://lake/wh]");
    assertThat(probes.whereToFix(profile(null))).contains("credential source gcp");
  }

  private static void read(FileIO io, String location) throws java.io.IOException {
    try (InputStream in = io.newInputFile(location).newStream()) {
      in.read();
    }
  }
}
