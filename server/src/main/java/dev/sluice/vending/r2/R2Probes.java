package dev.sluice.vending.r2;

import dev.sluice.vending.StorageCredential;
import dev.sluice.vending.StorageProfile;
import dev.sluice.vending.StoreProbes;
import dev.sluice.vending.s3.S3Probes;
import java.util.Optional;
import org.apache.iceberg.io.FileIO;

/**
 * The R2 side of the storage self-check: R2 speaks the S3 API, so the engine-side FileIO and the
 * store's answers are S3's ({@link S3Probes}); the credential's lifetime is its JWT's {@code exp},
 * chosen by Sluice when it mints, so any lifetime can be asked for.
 */
final class R2Probes implements StoreProbes {
  @Override
  public FileIO open(StorageCredential credential) {
    return S3Probes.engineFileIO(credential);
  }

  @Override
  public Optional<StoreAnswer> answer(Throwable error) {
    return S3Probes.serviceAnswer(error);
  }

  @Override
  public Optional<StorageProfile> withLifetime(StorageProfile profile, int seconds) {
    return Optional.of(((R2StorageProfile) profile).withDuration(seconds));
  }

  @Override
  public String whereToFix(StorageProfile profile) {
    R2StorageProfile r2 = (R2StorageProfile) profile;
    return "Where to fix: R2 must hold a temporary credential to its token's bucket, prefixPaths"
        + " and object-read-only / object-read-write scope, and never beyond the parent API"
        + " token's own permissions. Narrow the parent token (credential source "
        + r2.credentialSourceName()
        + ") in the Cloudflare dashboard to Object Read & Write on the buckets of this catalog's"
        + " allowed locations "
        + r2.allowedLocations()
        + " (not Admin Read & Write, not every bucket), and check that storageConfigInfo.endpoint "
        + r2.endpoint()
        + " is R2 itself: an S3-compatible proxy that accepts the token without its claims"
        + " grants whatever the key behind it can do.";
  }
}
