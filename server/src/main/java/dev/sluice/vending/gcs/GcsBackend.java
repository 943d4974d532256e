package dev.sluice.vending.gcs;

import static java.util.Objects.requireNonNull;

import com.google.auth.oauth2.GoogleCredentials;
import com.google.auth.oauth2.ImpersonatedCredentials;
import com.google.cloud.http.HttpTransportOptions;
import com.google.cloud.storage.StorageOptions;
import dev.sluice.vending.CredentialSource;
import dev.sluice.vending.CredentialSourceType;
import dev.sluice.vending.CredentialVendor;
import dev.sluice.vending.StorageBackend;
import dev.sluice.vending.StorageField;
import dev.sluice.vending.StorageTimeouts;
import dev.sluice.vending.StoreProbes;
import dev.sluice.vending.VendorMetrics;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import org.apache.iceberg.gcp.gcs.GCSFileIO;
import org.apache.iceberg.io.FileIO;

/**
 * Google Cloud Storage: tokens downscoped per table at Google's STS ({@link GcsCredentialVendor});
 * the catalog's own I/O uses its Google credential through Iceberg's GCSFileIO.
 */
public final class GcsBackend implements StorageBackend<GcsStorageProfile> {
  static final String TYPE = "GCS";

  @Override
  public Set<String> configKeys() {
    return Set.of(
        "credentialSource", "gcsServiceAccount", "projectId", "durationSeconds", "vendCredentials");
  }

  @Override
  public String storageType() {
    return TYPE;
  }

  @Override
  public Class<GcsStorageProfile> profileType() {
    return GcsStorageProfile.class;
  }

  @Override
  public Set<String> schemes() {
    return Set.of("gs");
  }

  /** The storage SDK's own exceptions, from the catalog's FileIO. */
  @Override
  public boolean isStorageFailure(Throwable error) {
    return error instanceof com.google.cloud.BaseServiceException;
  }

  @Override
  public List<CredentialSourceType> credentialSourceTypes() {
    return GoogleCredentialSource.TYPES;
  }

  @Override
  public List<StorageField> formFields() {
    return List.of(
        StorageField.text("projectId", "Project id"),
        StorageField.text("gcsServiceAccount", "Service account to impersonate"),
        StorageField.durationSeconds());
  }

  @Override
  public Optional<StoreProbes> probes() {
    return Optional.of(new GcsProbes());
  }

  @Override
  public GcsStorageProfile parse(Input input) {
    return GcsStorageProfile.parse(input);
  }

  @Override
  public Optional<CredentialVendor> openVendor(
      GcsStorageProfile profile,
      CredentialSource source,
      VendorMetrics metrics,
      StorageTimeouts.Provider timeouts) {
    GoogleCredentialSource google = (GoogleCredentialSource) source;
    return Optional.of(
        new GcsCredentialVendor(
            profile,
            identity(profile, source),
            projectId(profile, google),
            google.endpoint().orElse(null),
            metrics::providerCall));
  }

  @Override
  public FileIO openCatalogIO(
      GcsStorageProfile profile, CredentialSource source, StorageTimeouts.CatalogIo timeouts) {
    requireNonNull(timeouts, "timeouts"); // used when the client is built, later
    GoogleCredentials credentials = identity(profile, source);
    GoogleCredentialSource google = (GoogleCredentialSource) source;
    String projectId = projectId(profile, google);
    String endpoint = google.endpoint().orElse(null);
    GCSFileIO io =
        new GCSFileIO(
            () -> {
              StorageOptions.Builder options = StorageOptions.newBuilder();
              options.setCredentials(credentials);
              bounded(options, timeouts);
              if (projectId != null) {
                options.setProjectId(projectId);
              }
              if (endpoint != null) {
                options.setHost(endpoint);
              }
              return options.build().getService();
            });
    Map<String, String> properties = new HashMap<>();
    io.initialize(properties);
    return io;
  }

  /**
   * The catalog's reads and writes give up as the other backends' do, within {@code timeouts}
   * ({@code storage.catalogIoTimeouts}): the client's defaults are 20 s per attempt and 50 s in
   * all, with six attempts.
   */
  static StorageOptions.Builder bounded(
      StorageOptions.Builder options, StorageTimeouts.CatalogIo timeouts) {
    Duration attempt = timeouts.attempt();
    int attemptMs = (int) attempt.toMillis();
    return options
        .setTransportOptions(
            HttpTransportOptions.newBuilder()
                .setConnectTimeout(attemptMs)
                .setReadTimeout(attemptMs)
                .build())
        .setRetrySettings(
            StorageOptions.getDefaultRetrySettings().toBuilder()
                .setMaxAttempts(timeouts.maxAttempts())
                .setTotalTimeoutDuration(timeouts.call())
                .setInitialRpcTimeoutDuration(attempt)
                .setMaxRpcTimeoutDuration(attempt)
                .build());
  }

  /** The catalog's project, else the source's (a key file's {@code project_id}), or null. */
  private static String projectId(GcsStorageProfile profile, GoogleCredentialSource source) {
    return profile.projectId() != null ? profile.projectId() : source.projectId().orElse(null);
  }

  /**
   * The identity tokens come from: the source itself, or the profile's service account impersonated
   * through IAM Credentials for {@code durationSeconds} (the source needs
   * roles/iam.serviceAccountTokenCreator on it).
   */
  private static GoogleCredentials identity(GcsStorageProfile profile, CredentialSource source) {
    GoogleCredentials credentials = ((GoogleCredentialSource) source).credentials();
    if (profile.serviceAccount() == null) {
      return credentials;
    }
    return ImpersonatedCredentials.newBuilder()
        .setSourceCredentials(credentials)
        .setTargetPrincipal(profile.serviceAccount())
        .setScopes(List.of(GoogleCredentialSource.CLOUD_PLATFORM))
        .setLifetime(profile.durationSeconds())
        .build();
  }
}
