package dev.sluice.vending.azure;

import com.azure.core.http.HttpClient;
import com.azure.core.http.jdk.httpclient.JdkHttpClientBuilder;
import dev.sluice.vending.ClientProperties;
import dev.sluice.vending.CredentialSource;
import dev.sluice.vending.CredentialSourceType;
import dev.sluice.vending.CredentialVendor;
import dev.sluice.vending.SameStorage;
import dev.sluice.vending.StorageBackend;
import dev.sluice.vending.StorageField;
import dev.sluice.vending.StorageTimeouts;
import dev.sluice.vending.StoreProbes;
import dev.sluice.vending.VendorMetrics;
import java.time.Clock;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import org.apache.iceberg.io.FileIO;

/**
 * Azure Data Lake Storage Gen2 and Blob storage: user-delegation SAS per table ({@link
 * AzureCredentialVendor}); the catalog's own I/O uses its Entra identity through Iceberg's
 * ADLSFileIO ({@link CatalogAdlsIO}). Never an account key, never an account SAS.
 */
public final class AzureBackend implements StorageBackend<AzureStorageProfile> {
  static final String TYPE = "AZURE";

  @Override
  public Set<String> configKeys() {
    return Set.of(
        "credentialSource",
        "tenantId",
        "multiTenantAppName",
        "consentUrl",
        "durationSeconds",
        "hierarchicalNamespace",
        "allowContainerScope",
        "vendCredentials");
  }

  @Override
  public String storageType() {
    return TYPE;
  }

  @Override
  public Class<AzureStorageProfile> profileType() {
    return AzureStorageProfile.class;
  }

  @Override
  public Set<String> schemes() {
    return Set.of("abfss", "wasbs");
  }

  /** The storage SDK's own exceptions, from the catalog's FileIO. */
  @Override
  public boolean isStorageFailure(Throwable error) {
    return error instanceof com.azure.core.exception.AzureException;
  }

  @Override
  public List<CredentialSourceType> credentialSourceTypes() {
    return AzureCredentialSource.TYPES;
  }

  /**
   * The Blob endpoint ({@code wasbs://}) reaches the files of the DFS one ({@code abfss://}), and
   * host names are case-insensitive.
   */
  @Override
  public List<SameStorage> sameStorage() {
    return List.of(
        new SameStorage(
            "wasbs://container@account.blob.core.windows.net/path",
            "abfss://container@account.dfs.core.windows.net/path"),
        new SameStorage(
            "abfss://container@Account.DFS.Core.Windows.Net/path",
            "abfss://container@account.dfs.core.windows.net/path"));
  }

  @Override
  public List<StorageField> formFields() {
    return List.of(
        StorageField.text("tenantId", "Entra tenant id"),
        StorageField.bool("hierarchicalNamespace", "Hierarchical namespace (ADLS Gen2)"),
        StorageField.bool("allowContainerScope", "Allow container-wide SAS"),
        StorageField.durationSeconds());
  }

  @Override
  public Optional<StoreProbes> probes() {
    return Optional.of(new AzureProbes());
  }

  @Override
  public AzureStorageProfile parse(Input input) {
    return AzureStorageProfile.parse(input);
  }

  @Override
  public Optional<CredentialVendor> openVendor(
      AzureStorageProfile profile,
      CredentialSource source,
      VendorMetrics metrics,
      StorageTimeouts.Provider timeouts) {
    AzureCredentialSource azure = (AzureCredentialSource) source;
    String endpoint = azure.endpoint().orElse(null);
    // The JDK's HTTP client (the netty transport's native jars are not available everywhere),
    // made per vendor so that it takes the JVM's TLS trust as it is when the catalog opens.
    HttpClient http = new JdkHttpClientBuilder().build();
    DelegationKeys keys =
        new DelegationKeys(
            DelegationKeys.clients(azure.credential(), endpoint, http, timeouts),
            Clock.systemUTC());
    return Optional.of(
        new AzureCredentialVendor(
            profile, keys, endpoint, Clock.systemUTC(), metrics::providerCall));
  }

  @Override
  public FileIO openCatalogIO(
      AzureStorageProfile profile, CredentialSource source, StorageTimeouts.CatalogIo timeouts) {
    AzureCredentialSource azure = (AzureCredentialSource) source;
    Map<String, String> connectionStrings = new HashMap<>();
    azure
        .endpoint()
        .ifPresent(
            endpoint ->
                profile.allowedLocations().stream()
                    .map(l -> AzureLocation.parse(l).host())
                    .forEach(
                        host ->
                            connectionStrings.put(
                                ClientProperties.ADLS_CONNECTION_STRING_PREFIX + host, endpoint)));
    return new CatalogAdlsIO(
        azure.credential(), connectionStrings, CatalogAdlsIO.retryOptions(timeouts));
  }
}
