package dev.sluice.vending.azure;

import static java.util.Objects.requireNonNull;

import com.azure.core.credential.AccessToken;
import com.azure.core.credential.TokenCredential;
import com.azure.core.credential.TokenRequestContext;
import java.time.Duration;
import java.time.OffsetDateTime;
import java.util.HashMap;
import java.util.Map;
import org.apache.iceberg.azure.adlsv2.ADLSFileIO;
import org.apache.iceberg.io.DelegateFileIO;
import org.apache.iceberg.io.FileInfo;
import org.apache.iceberg.io.InputFile;
import org.apache.iceberg.io.OutputFile;

/**
 * The catalog's own ADLS I/O: Iceberg's ADLSFileIO with the catalog's Entra token ({@code
 * adls.token}, which ADLSFileIO cannot refresh), re-opened with a fresh token before the current
 * one expires. Files opened earlier keep their client; the catalog's operations are short.
 */
final class CatalogAdlsIO implements DelegateFileIO {
  static final String STORAGE_SCOPE = "https://storage.azure.com/.default";
  private static final Duration REFRESH_BEFORE = Duration.ofMinutes(5);

  private final TokenCredential credential;
  private final Map<String, String> baseProperties;
  private volatile Current current;

  private record Current(ADLSFileIO io, OffsetDateTime expiresAt) {}

  /**
   * @param connectionStrings {@code adls.connection-string.<host>} entries (an emulator or a
   *     private endpoint), or empty
   */
  CatalogAdlsIO(TokenCredential credential, Map<String, String> connectionStrings) {
    this.credential = requireNonNull(credential, "credential");
    this.baseProperties = Map.copyOf(connectionStrings);
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
          ADLSFileIO io = new ADLSFileIO();
          io.initialize(properties);
          current = now = new Current(io, token.getExpiresAt());
        }
      }
    }
    return now.io();
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
