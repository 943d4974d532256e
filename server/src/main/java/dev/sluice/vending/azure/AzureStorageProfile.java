package dev.sluice.vending.azure;

import static dev.sluice.vending.ProfileFields.bool;
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

/**
 * A catalog on Azure storage ({@code storageConfigInfo} with {@code storageType: AZURE}),
 * validated: every error names its key.
 *
 * <pre>
 * {"storageType": "AZURE", "allowedLocations": ["abfss://lake@acct.dfs.core.windows.net/wh"],
 *  "tenantId": "...", "credentialSource": "azure", "durationSeconds": 900,
 *  "hierarchicalNamespace": true, "allowContainerScope": false,
 *  "vendCredentials": "always" | "on-request"}
 * </pre>
 *
 * On a hierarchical-namespace account a table gets a directory SAS on its own directory. A flat
 * account has no SAS narrower than a container, so it is refused unless the operator sets {@code
 * allowContainerScope} for this catalog, accepting that every table's credential covers its whole
 * container. {@code multiTenantAppName} and {@code consentUrl} are accepted as Polaris writes them
 * and unused.
 */
public record AzureStorageProfile(
    String catalog,
    List<String> allowedLocations,
    String credentialSourceName,
    String tenantId,
    int durationSeconds,
    boolean hierarchicalNamespace,
    boolean containerScope,
    boolean vendOnlyOnRequest)
    implements StorageProfile {
  /** A SAS cannot outlive its user delegation key, which lives at most 7 days. */
  public static final int MAX_DURATION = 7 * 24 * 3600;

  public static final int DEFAULT_DURATION = 3600;
  private static final String KEY = StorageBackend.Input.KEY;

  public AzureStorageProfile {
    requireNonNull(catalog, "catalog");
    allowedLocations = List.copyOf(allowedLocations);
    requireNonNull(credentialSourceName, "credentialSourceName");
  }

  static AzureStorageProfile parse(StorageBackend.Input input) {
    var info = input.info();
    for (String location : input.allowedLocations()) {
      try {
        AzureLocation.parse(location);
      } catch (IllegalArgumentException e) {
        throw new IllegalArgumentException(KEY + "allowedLocations: " + e.getMessage());
      }
    }
    String source = text(info, "credentialSource");
    if (source == null) {
      throw new IllegalArgumentException(
          KEY
              + "credentialSource is required (an Azure source in the server config:"
              + " azure-client-secret, azure-managed-identity or azure-workload-identity)");
    }
    text(info, "multiTenantAppName");
    text(info, "consentUrl");
    int duration =
        ProfileFields.duration(info, input.minDurationSeconds(), MAX_DURATION, DEFAULT_DURATION);
    boolean hns = bool(info, "hierarchicalNamespace", true);
    boolean containerScope = bool(info, "allowContainerScope", false);
    if (!hns && !containerScope) {
      throw new IllegalArgumentException(
          KEY
              + "hierarchicalNamespace is false: a flat account has no SAS narrower than a"
              + " container, so every table's credential would cover its whole container; set"
              + " allowContainerScope: true to accept that for this catalog");
    }
    if (hns && containerScope) {
      throw new IllegalArgumentException(
          KEY
              + "allowContainerScope is only for flat accounts (hierarchicalNamespace: false):"
              + " a hierarchical-namespace account scopes each table to its directory");
    }
    return new AzureStorageProfile(
        input.catalog(),
        input.allowedLocations(),
        source,
        text(info, "tenantId"),
        duration,
        hns,
        containerScope,
        ProfileFields.vendOnlyOnRequest(info));
  }

  @Override
  public String storageType() {
    return AzureBackend.TYPE;
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

  /** ADLSFileIO refreshes through its own keys, not the generic ones. */
  @Override
  public Map<String, String> refreshConfig(String endpoint) {
    return Map.of(
        ClientProperties.ADLS_REFRESH_CREDENTIALS_ENDPOINT,
        endpoint,
        ClientProperties.ADLS_REFRESH_CREDENTIALS_ENABLED,
        "true");
  }

  /** Locations one SAS per account cannot cover (see {@link SasScope#problem}). */
  @Override
  public Optional<String> unusableLocations(String location, Map<String, String> properties) {
    return SasScope.problem(
        LocationPolicy.locationsByProperty(location, properties), containerScope);
  }
}
