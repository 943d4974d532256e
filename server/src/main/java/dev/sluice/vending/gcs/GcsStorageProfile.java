package dev.sluice.vending.gcs;

import static dev.sluice.vending.ProfileFields.text;
import static java.util.Objects.requireNonNull;

import dev.sluice.location.LocationPolicy;
import dev.sluice.vending.ClientProperties;
import dev.sluice.vending.Delegation;
import dev.sluice.vending.ProfileFields;
import dev.sluice.vending.StorageBackend;
import dev.sluice.vending.StorageProfile;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * A catalog on Google Cloud Storage ({@code storageConfigInfo} with {@code storageType: GCS}),
 * validated: every error names its key.
 *
 * <pre>
 * {"storageType": "GCS", "allowedLocations": ["gs://bucket/warehouse"],
 *  "credentialSource": "gcp", "gcsServiceAccount": "vending@project.iam.gserviceaccount.com",
 *  "durationSeconds": 900, "projectId": "project", "vendCredentials": "always" | "on-request"}
 * </pre>
 *
 * A downscoped token lives exactly as long as its source token (Google's STS copies the expiry), so
 * {@code durationSeconds} needs {@code gcsServiceAccount}: only an impersonated token's lifetime is
 * chosen by the caller. A GCS host other than Google's is the credential source's {@code endpoint}
 * (it receives the catalog's own bearer tokens, so a catalog cannot name it).
 *
 * @param serviceAccount the service account to impersonate, or null to use the source directly
 * @param durationSeconds the impersonated token's lifetime (unused without {@code serviceAccount})
 * @param projectId the project for engines ({@code gcs.project-id}), or null for the source's
 */
public record GcsStorageProfile(
    String catalog,
    List<String> allowedLocations,
    String credentialSourceName,
    String serviceAccount,
    int durationSeconds,
    String projectId,
    boolean vendOnlyOnRequest)
    implements StorageProfile {
  /** IAM Credentials' generateAccessToken lifetime without an organization policy exception. */
  public static final int MAX_DURATION = 3600;

  public static final int DEFAULT_DURATION = 3600;
  private static final String KEY = StorageBackend.Input.KEY;
  private static final Pattern SERVICE_ACCOUNT =
      Pattern.compile("[a-z0-9][a-z0-9-]{0,99}@[a-z0-9.-]+\\.gserviceaccount\\.com");
  private static final Pattern PROJECT = Pattern.compile("[a-z][a-z0-9-]{4,28}[a-z0-9]");

  public GcsStorageProfile {
    requireNonNull(catalog, "catalog");
    allowedLocations = List.copyOf(allowedLocations);
    requireNonNull(credentialSourceName, "credentialSourceName");
  }

  static GcsStorageProfile parse(StorageBackend.Input input) {
    var info = input.info();
    String source = text(info, "credentialSource");
    if (source == null) {
      throw new IllegalArgumentException(
          KEY
              + "credentialSource is required (a Google source in the server config: google-adc,"
              + " google-service-account or google-workload-identity)");
    }
    String serviceAccount = text(info, "gcsServiceAccount");
    if (serviceAccount != null && !SERVICE_ACCOUNT.matcher(serviceAccount).matches()) {
      throw new IllegalArgumentException(
          KEY
              + "gcsServiceAccount must be a service account email"
              + " (name@project.iam.gserviceaccount.com), got "
              + serviceAccount);
    }
    if (serviceAccount == null && info.hasNonNull("durationSeconds")) {
      throw new IllegalArgumentException(
          KEY
              + "durationSeconds needs gcsServiceAccount: a downscoped token lives exactly as long"
              + " as its source token, and only an impersonated token's lifetime can be chosen");
    }
    int duration =
        ProfileFields.duration(info, input.minDurationSeconds(), MAX_DURATION, DEFAULT_DURATION);
    String projectId = text(info, "projectId");
    if (projectId != null && !PROJECT.matcher(projectId).matches()) {
      throw new IllegalArgumentException(
          KEY + "projectId must be a Google Cloud project id, got " + projectId);
    }
    return new GcsStorageProfile(
        input.catalog(),
        input.allowedLocations(),
        source,
        serviceAccount,
        duration,
        projectId,
        ProfileFields.vendOnlyOnRequest(info));
  }

  /** This profile with tokens living {@code seconds} (the self-check's expiry probe). */
  GcsStorageProfile withDuration(int seconds) {
    return new GcsStorageProfile(
        catalog,
        allowedLocations,
        credentialSourceName,
        serviceAccount,
        seconds,
        projectId,
        vendOnlyOnRequest);
  }

  @Override
  public String storageType() {
    return GcsBackend.TYPE;
  }

  @Override
  public Optional<String> credentialSource() {
    return Optional.of(credentialSourceName);
  }

  @Override
  public Set<Delegation.Kind> offered() {
    return Set.of(Delegation.Kind.VENDED_CREDENTIALS);
  }

  @Override
  public boolean delegateOnlyOnRequest() {
    return vendOnlyOnRequest;
  }

  /** GCSFileIO refreshes through its own keys, not the generic ones. */
  @Override
  public Map<String, String> refreshConfig(String endpoint) {
    return Map.of(
        ClientProperties.GCS_REFRESH_CREDENTIALS_ENDPOINT,
        endpoint,
        ClientProperties.GCS_REFRESH_CREDENTIALS_ENABLED,
        "true");
  }

  /**
   * Locations that one access boundary cannot cover: a bucket root (a boundary is scoped to object
   * prefixes, never a whole bucket) or more buckets than its rules allow.
   */
  @Override
  public Optional<String> unusableLocations(String location, Map<String, String> properties) {
    return AccessBoundaryBuilder.unscopable(
        LocationPolicy.locationsByProperty(location, properties));
  }
}
