package dev.sluice.vending.s3;

import static java.util.Objects.requireNonNull;

import com.fasterxml.jackson.databind.JsonNode;
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
import java.time.Clock;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import org.apache.iceberg.io.FileIO;
import software.amazon.awssdk.services.sts.StsClient;

/**
 * S3 and S3-compatible stores (AWS, Ceph RGW, RustFS, MinIO): credentials from STS AssumeRole with
 * a session policy scoped to the table; the catalog's own I/O through S3FileIO.
 */
public final class S3Backend implements StorageBackend<S3StorageProfile> {
  static final String TYPE = "S3";

  /** Opens the STS client of a profile's vendor, its calls bounded by the server's timeouts. */
  @FunctionalInterface
  public interface StsClients {
    StsClient open(
        S3StorageProfile profile, AwsCredentialSource source, StorageTimeouts.Provider timeouts);
  }

  private final StsClients stsClients;

  public S3Backend() {
    this(StsCredentialVendor::client);
  }

  /** With STS clients made elsewhere (the micro-benchmarks answer without a network). */
  public S3Backend(StsClients stsClients) {
    this.stsClients = requireNonNull(stsClients, "stsClients");
  }

  @Override
  public Set<String> configKeys() {
    return Set.of(
        "credentialSource",
        "region",
        "roleArn",
        "externalId",
        "endpoint",
        "stsEndpoint",
        "pathStyleAccess",
        "durationSeconds",
        "readPolicyTemplate",
        "writePolicyTemplate",
        "sessionName",
        "sessionTags",
        "vendCredentials",
        "stsUnavailable",
        "delegation",
        "unscopedSigning",
        "signatureLifetimeSeconds",
        "storeClockSkewSeconds",
        "currentKmsKey",
        "allowedKmsKeys",
        "accessPoints");
  }

  @Override
  public String storageType() {
    return TYPE;
  }

  @Override
  public Class<S3StorageProfile> profileType() {
    return S3StorageProfile.class;
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
    return AwsCredentialSource.TYPES;
  }

  /** Hadoop's {@code s3a://} names the objects {@code s3://} does. */
  @Override
  public List<SameStorage> sameStorage() {
    return List.of(new SameStorage("s3a://bucket/path", "s3://bucket/path"));
  }

  @Override
  public List<StorageField> formFields() {
    return List.of(
        StorageField.text("region", "Region", "e.g. us-east-1").asRequired(),
        StorageField.text("roleArn", "Role ARN", "the role STS AssumeRole takes for each table"),
        StorageField.text("endpoint", "S3 endpoint", "for S3-compatible stores (Ceph RGW, MinIO)"),
        StorageField.text("stsEndpoint", "STS endpoint"),
        StorageField.text("externalId", "External id"),
        StorageField.bool(
            "pathStyleAccess", "Path-style access (untouched: on with an endpoint, off on AWS)"),
        StorageField.durationSeconds(),
        StorageField.list(
            "delegation", "Delegation", "comma-separated: vended-credentials, remote-signing"),
        StorageField.text(
            "currentKmsKey",
            "SSE-KMS key",
            "the KMS key ARN engines write with (a store's own key id with an endpoint)"),
        StorageField.list(
            "allowedKmsKeys",
            "More SSE-KMS keys to read",
            "comma-separated key ARNs whose objects engines may read"));
  }

  /** The external id guards the role against the confused deputy: not for audit trails. */
  @Override
  public Set<String> secretKeys() {
    return Set.of("externalId");
  }

  /**
   * A namespace's own role, assumed in place of the catalog's for the tables below it: one role
   * (one blast radius) per data domain. The credential source defaults to the catalog's.
   */
  @Override
  public Set<String> identityKeys() {
    return Set.of("roleArn", "externalId", "credentialSource");
  }

  @Override
  public S3StorageProfile withIdentity(S3StorageProfile profile, IdentityInput input) {
    String key = IdentityInput.KEY;
    if (profile.stsUnavailable()) {
      throw new IllegalArgumentException(
          key
              + "roleArn: catalog "
              + profile.catalog()
              + " has storageConfigInfo.stsUnavailable, so no role can be assumed for a namespace");
    }
    String roleArn = identityText(input, "roleArn");
    if (roleArn == null || !roleArn.startsWith("arn:")) {
      throw new IllegalArgumentException(
          key + "roleArn is required: the ARN of the role to assume (arn:...)");
    }
    return profile.withIdentity(
        input.namespace(),
        roleArn,
        identityText(input, "externalId"),
        identityText(input, "credentialSource"));
  }

  private static String identityText(IdentityInput input, String field) {
    JsonNode node = input.identity().get(field);
    if (node == null || node.isNull()) {
      return null;
    }
    if (!node.isTextual() || node.asText().isBlank()) {
      throw new IllegalArgumentException(IdentityInput.KEY + field + " must be a non-empty string");
    }
    return node.asText();
  }

  @Override
  public Optional<StoreProbes> probes() {
    return Optional.of(new S3Probes());
  }

  @Override
  public S3StorageProfile parse(Input input) {
    return S3StorageProfile.parse(input);
  }

  @Override
  public Optional<CredentialVendor> openVendor(
      S3StorageProfile profile,
      CredentialSource source,
      VendorMetrics metrics,
      StorageTimeouts.Provider timeouts) {
    if (!profile.offered().contains(Delegation.Kind.VENDED_CREDENTIALS)) {
      return Optional.empty();
    }
    AwsCredentialSource aws = (AwsCredentialSource) source;
    return Optional.of(
        new StsCredentialVendor(
            profile, stsClients.open(profile, aws, timeouts), metrics::providerCall));
  }

  /**
   * Signs with an STS session of the role under the request's table's session policy (the vended
   * credential's scope), minted by a vendor of the signer's own; without a role or STS, as the
   * credential source where the operator accepted it ({@code unscopedSigning}), else not at all.
   */
  @Override
  public Optional<RequestSigner> openSigner(
      S3StorageProfile profile,
      CredentialSource source,
      VendorMetrics metrics,
      StorageTimeouts.Provider timeouts) {
    if (!profile.offered().contains(Delegation.Kind.REMOTE_SIGNING)) {
      return Optional.empty();
    }
    AwsCredentialSource aws = (AwsCredentialSource) source;
    S3RequestParser parser =
        new S3RequestParser(profile.region(), profile.endpoint(), profile.pathStyleAccess());
    if (profile.scopesSigning()) {
      return Optional.of(
          S3RequestSigner.scoped(
              parser,
              profile.region(),
              profile.signatureWindow(),
              new StsCredentialVendor(
                  profile, stsClients.open(profile, aws, timeouts), metrics::providerCall),
              Clock.systemUTC()));
    }
    if (profile.unscopedSigning()) {
      return Optional.of(
          S3RequestSigner.asCatalog(
              parser,
              profile.region(),
              profile.signatureWindow(),
              aws.provider(),
              Clock.systemUTC()));
    }
    return Optional.of(
        S3RequestSigner.refusing(
            parser, profile.region(), S3StorageProfile.unscopedSigningRefusal(profile.catalog())));
  }

  @Override
  public FileIO openCatalogIO(
      S3StorageProfile profile, CredentialSource source, StorageTimeouts.CatalogIo timeouts) {
    return CatalogS3Client.fileIO(
        profile.region(),
        profile.endpoint(),
        profile.pathStyleAccess(),
        (AwsCredentialSource) source,
        timeouts,
        // The catalog's own metadata files are written with the tables' key, and its reads go
        // through the same access points.
        profile.storageProperties());
  }
}
