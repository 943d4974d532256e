package dev.sluice.vending.r2;

import static org.assertj.core.api.Assertions.assertThat;

import dev.sluice.vending.AccessMode;
import dev.sluice.vending.StorageCredential;
import dev.sluice.vending.StoreProbes.StoreAnswer;
import dev.sluice.vending.VendingRequest;
import dev.sluice.vending.s3.AwsCredentialSource;
import java.io.UncheckedIOException;
import java.util.List;
import java.util.TreeMap;
import org.apache.iceberg.io.FileIO;
import org.apache.iceberg.io.SupportsPrefixOperations;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.awscore.exception.AwsErrorDetails;
import software.amazon.awssdk.core.exception.SdkClientException;
import software.amazon.awssdk.services.s3.model.S3Exception;

/** The R2 part of the self-check, offline: R2's refusals, the shorter profile, where to fix. */
class R2ProbesTest {
  private static final long NOW_MS = 1767225600_000L;
  private final R2Probes probes = new R2Probes();

  private static S3Exception s3Error(int status, String code) {
    return (S3Exception)
        S3Exception.builder()
            .statusCode(status)
            .awsErrorDetails(AwsErrorDetails.builder().errorCode(code).build())
            .build();
  }

  @Test
  void r2sStatusAndCodeAreReadFromTheServiceException() {
    assertThat(probes.answer(s3Error(403, "AccessDenied")))
        .contains(new StoreAnswer(403, "AccessDenied"));
    assertThat(probes.answer(s3Error(403, "ExpiredToken")))
        .contains(new StoreAnswer(403, "ExpiredToken"));
    assertThat(probes.answer(s3Error(404, "NoSuchKey")))
        .contains(new StoreAnswer(404, "NoSuchKey"));
    // Not R2's answer: a transport failure, or a wrapper (the caller walks the chain).
    assertThat(probes.answer(SdkClientException.create("connection refused"))).isEmpty();
    assertThat(probes.answer(new UncheckedIOException(new java.io.IOException(s3Error(403, "x")))))
        .isEmpty();
  }

  @Test
  void theShortProfileMintsCredentialsLivingOnlyThatLong() {
    R2StorageProfile profile = R2CredentialVendorTest.profile(R2CredentialVendorTest.info());
    R2StorageProfile shorter = (R2StorageProfile) probes.withLifetime(profile, 2).orElseThrow();
    assertThat(shorter.durationSeconds()).isEqualTo(2);
    assertThat(shorter.withDuration(profile.durationSeconds())).isEqualTo(profile);
    R2CredentialVendor vendor =
        new R2CredentialVendor(
            shorter,
            AwsCredentialSource.staticKeys(
                "r2", "a1b2c3d4e5f60718293a4b5c6d7e8f90", "0f".repeat(32)),
            () -> NOW_MS,
            d -> {});
    StorageCredential credential =
        vendor
            .vend(
                new VendingRequest(
                    "s3://warehouse/db/t",
                    List.of("s3://warehouse/db/t"),
                    AccessMode.READ,
                    "p",
                    new TreeMap<>()))
            .get(0);
    assertThat(credential.expiresAtMs()).isEqualTo(NOW_MS + 2000);
    try (FileIO io = probes.open(credential)) {
      assertThat(io).isInstanceOf(SupportsPrefixOperations.class);
    }
  }

  @Test
  void whereToFixNamesTheParentTokenTheLocationsAndTheEndpoint() {
    R2StorageProfile profile = R2CredentialVendorTest.profile(R2CredentialVendorTest.info());
    assertThat(probes.whereToFix(profile))
        .startsWith("Where to fix: ")
        .contains("credential source r2")
        .contains("Object Read & Write")
        .contains("[s3://warehouse/db]")
        .contains(profile.endpoint());
  }
}
