package dev.sluice.vending.r2;

import dev.sluice.vending.CredentialSource;
import dev.sluice.vending.CredentialSourceType;
import dev.sluice.vending.CredentialVendor;
import dev.sluice.vending.Delegation;
import dev.sluice.vending.RequestSigner;
import dev.sluice.vending.SameStorage;
import dev.sluice.vending.StorageBackend;
import dev.sluice.vending.StorageField;
import dev.sluice.vending.StorageTimeouts;
import dev.sluice.vending.StoreProbes;
import dev.sluice.vending.VendorMetrics;
import dev.sluice.vending.s3.AwsCredentialSource;
import dev.sluice.vending.s3.CatalogS3Client;
import dev.sluice.vending.s3.S3Signing;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import org.apache.iceberg.io.FileIO;

/**
 * Cloudflare R2: S3-compatible, without STS. Credentials are minted locally from the parent key
 * ({@link R2TokenMinter}); the catalog's own I/O uses the parent key through S3FileIO.
 */
public final class R2Backend implements StorageBackend<R2StorageProfile> {
  static final String TYPE = "R2";

  /** R2's region for SigV4: always {@code auto}. */
  static final String REGION = "auto";

  @Override
  public Set<String> configKeys() {
    return Set.of(
        "credentialSource",
        "accountId",
        "endpoint",
        "durationSeconds",
        "vendCredentials",
        "delegation");
  }

  @Override
  public String storageType() {
    return TYPE;
  }

  @Override
  public Class<R2StorageProfile> profileType() {
    return R2StorageProfile.class;
  }

  @Override
  public Set<String> schemes() {
    return Set.of("s3", "s3a");
  }

  /** The storage SDK's own exceptions, from the catalog's FileIO. */
  @Override
  public boolean isStorageFailure(Throwable error) {
    return error instanceof software.amazon.awssdk.core.exception.SdkException;
  }

  @Override
  public List<CredentialSourceType> credentialSourceTypes() {
    return List.of(AwsCredentialSource.STATIC_TYPE);
  }

  /** Hadoop's {@code s3a://} names the objects {@code s3://} does. */
  @Override
  public List<SameStorage> sameStorage() {
    return List.of(new SameStorage("s3a://bucket/path", "s3://bucket/path"));
  }

  @Override
  public List<StorageField> formFields() {
    return List.of(
        StorageField.text("accountId", "Cloudflare account id"),
        StorageField.text("endpoint", "R2 endpoint").asRequired(),
        StorageField.durationSeconds());
  }

  @Override
  public Optional<StoreProbes> probes() {
    return Optional.of(new R2Probes());
  }

  @Override
  public R2StorageProfile parse(Input input) {
    return R2StorageProfile.parse(input);
  }

  @Override
  public Optional<CredentialVendor> openVendor(
      R2StorageProfile profile,
      CredentialSource source,
      VendorMetrics metrics,
      StorageTimeouts.Provider timeouts) {
    if (!profile.offered().contains(Delegation.Kind.VENDED_CREDENTIALS)) {
      return Optional.empty();
    }
    return Optional.of(
        new R2CredentialVendor(
            profile,
            (AwsCredentialSource) source,
            System::currentTimeMillis,
            metrics::providerCall));
  }

  /**
   * Signed with an R2 temporary credential minted for the request's table (its prefixes, read-only
   * or read-write), never with the parent key pair: R2 itself then refuses what a client adds.
   */
  @Override
  public Optional<RequestSigner> openSigner(
      R2StorageProfile profile,
      CredentialSource source,
      VendorMetrics metrics,
      StorageTimeouts.Provider timeouts) {
    if (!profile.offered().contains(Delegation.Kind.REMOTE_SIGNING)) {
      return Optional.empty();
    }
    return Optional.of(
        S3Signing.scoped(
            REGION,
            profile.endpoint(),
            true,
            new R2CredentialVendor(
                profile,
                (AwsCredentialSource) source,
                System::currentTimeMillis,
                metrics::providerCall)));
  }

  @Override
  public FileIO openCatalogIO(
      R2StorageProfile profile, CredentialSource source, StorageTimeouts.CatalogIo timeouts) {
    return CatalogS3Client.fileIO(
        REGION, profile.endpoint(), true, (AwsCredentialSource) source, timeouts);
  }
}
