package dev.sluice.vending.azure;

import static java.util.Objects.requireNonNull;

import com.azure.core.credential.AccessToken;
import com.azure.core.credential.TokenCredential;
import com.azure.core.credential.TokenRequestContext;
import com.azure.storage.common.policy.RequestRetryOptions;
import com.azure.storage.common.policy.RetryPolicyType;
import com.azure.storage.file.datalake.DataLakeFileSystemClientBuilder;
import dev.sluice.vending.StorageTimeouts;
import java.lang.reflect.Constructor;
import java.lang.reflect.InvocationTargetException;
import java.time.Duration;
import java.time.OffsetDateTime;
import java.util.HashMap;
import java.util.Map;
import org.apache.iceberg.azure.AzureProperties;
import org.apache.iceberg.azure.adlsv2.ADLSFileIO;
import org.apache.iceberg.io.DelegateFileIO;
import org.apache.iceberg.io.FileInfo;
import org.apache.iceberg.io.InputFile;
import org.apache.iceberg.io.OutputFile;

/**
 * The catalog's own ADLS I/O: Iceberg's ADLSFileIO with the catalog's Entra token ({@code
 * adls.token}, which ADLSFileIO cannot refresh), re-opened with a fresh token before the current
 * one expires. Files opened earlier keep their client; the catalog's operations are short.
 *
 * <p>Its calls give up as the catalog's other storage calls do ({@code storage.catalogIoTimeouts}),
 * where the storage SDK's defaults try four times with no time limit per try: a stalled account
 * would hold a load for minutes.
 */
final class CatalogAdlsIO implements DelegateFileIO {
  static final String STORAGE_SCOPE = "https://storage.azure.com/.default";
  private static final Duration REFRESH_BEFORE = Duration.ofMinutes(5);

  private final TokenCredential credential;
  private final Map<String, String> baseProperties;
  private final RequestRetryOptions retry;
  private volatile Current current;

  private record Current(ADLSFileIO io, OffsetDateTime expiresAt) {}

  /**
   * @param connectionStrings {@code adls.connection-string.<host>} entries (an emulator or a
   *     private endpoint), or empty
   */
  CatalogAdlsIO(
      TokenCredential credential,
      Map<String, String> connectionStrings,
      RequestRetryOptions retry) {
    this.credential = requireNonNull(credential, "credential");
    this.baseProperties = Map.copyOf(connectionStrings);
    this.retry = requireNonNull(retry, "retry");
  }

  /**
   * Tries of {@code timeouts.attempt()} each, as many as fit in its call (at least one, at most its
   * {@code maxAttempts}), 100 ms apart: the SDK bounds each try, not the call.
   */
  static RequestRetryOptions retryOptions(StorageTimeouts.CatalogIo timeouts) {
    return new RequestRetryOptions(
        RetryPolicyType.FIXED,
        timeouts.attemptsWithinCall(),
        timeouts.attempt(),
        Duration.ofMillis(100),
        Duration.ofMillis(100),
        null);
  }

  private ADLSFileIO io() {
    Current now = current;
    if (now == null || now.expiresAt().minus(REFRESH_BEFORE).isBefore(OffsetDateTime.now())) {
      synchronized (this) {
        now = current;
        if (now == null || now.expiresAt().minus(REFRESH_BEFORE).isBefore(OffsetDateTime.now())) {
          AccessToken token =
              credential.getTokenSync(new TokenRequestContext().addScopes(STORAGE_SCOPE));
          Map<String, String> properties = new HashMap<>(baseProperties);
          properties.put("adls.token", token.getToken());
          current = now = new Current(bounded(properties, retry), token.getExpiresAt());
        }
      }
    }
    return now.io();
  }

  /**
   * An ADLSFileIO whose clients use {@code retry}. ADLSFileIO builds its clients itself from its
   * {@link AzureProperties}; the constructor that takes them (Iceberg's own test seam, package
   * private) is the one way to give it properties that also set the retries. Initialised this way,
   * it reports no properties and has no credential refresh, which the catalog's I/O needs neither.
   */
  static ADLSFileIO bounded(Map<String, String> properties, RequestRetryOptions retry) {
    try {
      return WITH_PROPERTIES.newInstance(new BoundedProperties(properties, retry));
    } catch (InstantiationException | IllegalAccessException e) {
      throw new IllegalStateException("Cannot open ADLSFileIO with bounded retries", e);
    } catch (InvocationTargetException e) {
      throw e.getCause() instanceof RuntimeException r
          ? r
          : new IllegalStateException("Cannot open ADLSFileIO", e.getCause());
    }
  }

  private static final Constructor<ADLSFileIO> WITH_PROPERTIES = withProperties();

  private static Constructor<ADLSFileIO> withProperties() {
    try {
      Constructor<ADLSFileIO> constructor =
          ADLSFileIO.class.getDeclaredConstructor(AzureProperties.class);
      constructor.setAccessible(true);
      return constructor;
    } catch (NoSuchMethodException e) {
      // A newer Iceberg: fail at the first Azure catalog, and in AzureCatalogIoStallTest.
      throw new IllegalStateException(
          "This Iceberg's ADLSFileIO has no ADLSFileIO(AzureProperties) constructor", e);
    }
  }

  /** The catalog's ADLS properties, whose clients also get the catalog's retries. */
  private static final class BoundedProperties extends AzureProperties {
    private static final long serialVersionUID = 1L;
    private final transient RequestRetryOptions retry;

    BoundedProperties(Map<String, String> properties, RequestRetryOptions retry) {
      super(properties);
      this.retry = retry;
    }

    @Override
    public void applyClientConfiguration(String account, DataLakeFileSystemClientBuilder builder) {
      super.applyClientConfiguration(account, builder);
      builder.retryOptions(retry);
    }
  }

  @Override
  public InputFile newInputFile(String path) {
    return io().newInputFile(path);
  }

  @Override
  public InputFile newInputFile(String path, long length) {
    return io().newInputFile(path, length);
  }

  @Override
  public OutputFile newOutputFile(String path) {
    return io().newOutputFile(path);
  }

  @Override
  public void deleteFile(String path) {
    io().deleteFile(path);
  }

  @Override
  public void deleteFiles(Iterable<String> paths) {
    io().deleteFiles(paths);
  }

  @Override
  public Iterable<FileInfo> listPrefix(String prefix) {
    return io().listPrefix(prefix);
  }

  @Override
  public void deletePrefix(String prefix) {
    io().deletePrefix(prefix);
  }

  @Override
  public Map<String, String> properties() {
    return baseProperties;
  }

  @Override
  public void close() {
    Current last = current;
    if (last != null) {
      last.io().close();
    }
  }
}
