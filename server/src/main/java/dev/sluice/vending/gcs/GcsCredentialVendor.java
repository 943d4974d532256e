package dev.sluice.vending.gcs;

import static java.util.Objects.requireNonNull;

import com.google.api.client.http.HttpResponseException;
import com.google.auth.oauth2.AccessToken;
import com.google.auth.oauth2.DownscopedCredentials;
import com.google.auth.oauth2.GoogleCredentials;
import dev.sluice.vending.ClientProperties;
import dev.sluice.vending.CredentialVendor;
import dev.sluice.vending.StorageCredential;
import dev.sluice.vending.VendingException;
import dev.sluice.vending.VendingRequest;
import java.io.IOException;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Consumer;

/**
 * GCS vending: the catalog's Google credential (impersonating {@code gcsServiceAccount} when set)
 * exchanged at Google's STS for a token downscoped by the table's access boundary ({@link
 * AccessBoundaryBuilder}), through google-auth's {@link DownscopedCredentials}. One token covers
 * every location of the table, so engines get exactly one {@code gs} credential, which is what
 * GCSFileIO's refresh accepts.
 */
public final class GcsCredentialVendor implements CredentialVendor {
  private final GcsStorageProfile profile;
  private final GoogleCredentials source;
  private final String projectId;
  private final String endpoint;
  private final Consumer<Duration> stsLatency;

  /**
   * @param source the credentials tokens are exchanged from (already impersonating, if the profile
   *     says so); google-auth refreshes them before they expire
   * @param projectId the project engines bill to ({@code gcs.project-id}), or null
   * @param endpoint the GCS host engines use ({@code gcs.service.host}), or null for Google's
   */
  public GcsCredentialVendor(
      GcsStorageProfile profile,
      GoogleCredentials source,
      String projectId,
      String endpoint,
      Consumer<Duration> stsLatency) {
    this.profile = requireNonNull(profile, "profile");
    this.source = requireNonNull(source, "source");
    this.projectId = projectId;
    this.endpoint = endpoint;
    this.stsLatency = requireNonNull(stsLatency, "stsLatency");
  }

  @Override
  public Optional<String> unsafe(String location) {
    return AccessBoundaryBuilder.unsafe(location);
  }

  @Override
  public Optional<String> unscopable(List<String> locations) {
    return AccessBoundaryBuilder.unscopable(locations);
  }

  /** Exact objects too, while every rule's condition stays within Google's limit. */
  @Override
  public boolean fits(VendingRequest request) {
    return AccessBoundaryBuilder.fits(request.locations(), request.objects(), request.mode());
  }

  /** The token depends only on where and how: a downscoped token carries no caller. */
  @Override
  public Object cacheKey(VendingRequest request) {
    return List.of(request.tableLocation(), request.locations(), request.objects(), request.mode());
  }

  @Override
  public List<StorageCredential> vend(VendingRequest request) {
    DownscopedCredentials downscoped =
        DownscopedCredentials.newBuilder()
            .setSourceCredential(source)
            .setCredentialAccessBoundary(
                AccessBoundaryBuilder.build(request.locations(), request.objects(), request.mode()))
            .build();
    long start = System.nanoTime();
    AccessToken token;
    try {
      token = downscoped.refreshAccessToken();
    } catch (IOException | RuntimeException e) {
      int status = status(e);
      throw new VendingException(
          "Cannot vend credentials for catalog "
              + profile.catalog()
              + (status > 0
                  ? ": Google's token exchange answered HTTP " + status
                  : ": Google's token service is unreachable ("
                      + e.getClass().getSimpleName()
                      + ")"),
          status,
          e);
    } finally {
      stsLatency.accept(Duration.ofNanos(System.nanoTime() - start));
    }
    if (token.getExpirationTime() == null) {
      throw new VendingException(
          "Cannot vend credentials for catalog "
              + profile.catalog()
              + ": Google's token exchange gave a token without an expiry",
          0,
          null);
    }
    long expiresAt = token.getExpirationTime().getTime();
    Map<String, String> config = new LinkedHashMap<>();
    config.put(ClientProperties.GCS_OAUTH2_TOKEN, token.getTokenValue());
    config.put(ClientProperties.GCS_OAUTH2_TOKEN_EXPIRES_AT, Long.toString(expiresAt));
    if (projectId != null) {
      config.put(ClientProperties.GCS_PROJECT_ID, projectId);
    }
    if (endpoint != null) {
      config.put(ClientProperties.GCS_SERVICE_HOST, endpoint);
    }
    // Exactly one gs credential (what GCSFileIO's refresh accepts): a plan's under its files'
    // common directory when they lie in one bucket, else under the table's location.
    List<String> prefixes = request.credentialPrefixes();
    String prefix = prefixes.size() == 1 ? prefixes.get(0) : request.tableLocation();
    return List.of(new StorageCredential(prefix, config, expiresAt));
  }

  /** The HTTP status Google answered with, found in the cause chain, or 0 when none was. */
  private static int status(Throwable error) {
    for (Throwable t = error; t != null; t = t.getCause()) {
      if (t instanceof HttpResponseException http) {
        return http.getStatusCode();
      }
    }
    return 0;
  }
}
