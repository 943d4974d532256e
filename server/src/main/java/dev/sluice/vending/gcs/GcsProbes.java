package dev.sluice.vending.gcs;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.google.api.client.http.HttpResponseException;
import com.google.auth.oauth2.AccessToken;
import com.google.auth.oauth2.OAuth2Credentials;
import com.google.cloud.BaseServiceException;
import com.google.cloud.storage.StorageOptions;
import dev.sluice.vending.ClientProperties;
import dev.sluice.vending.StorageCredential;
import dev.sluice.vending.StorageProfile;
import dev.sluice.vending.StoreProbes;
import java.io.IOException;
import java.util.Map;
import java.util.Optional;
import org.apache.iceberg.gcp.gcs.GCSFileIO;
import org.apache.iceberg.io.FileIO;

/**
 * The GCS side of the storage self-check: Iceberg's GCSFileIO initialized with nothing but a vended
 * credential's client properties, as an engine does; Google's answer read from the storage client's
 * exception (HTTP status and the JSON API's error reason). A downscoped token lives as long as its
 * source token, so only a catalog impersonating {@code gcsServiceAccount} can shorten it for the
 * expiry check.
 */
final class GcsProbes implements StoreProbes {
  private static final ObjectMapper JSON = new ObjectMapper();

  @Override
  public FileIO open(StorageCredential credential) {
    GCSFileIO io = new GCSFileIO();
    io.initialize(credential.config());
    return io;
  }

  /**
   * google-auth never sends a token it knows expired (it tries to refresh it, and a fixed token
   * cannot be), so an engine's GCSFileIO would fail before reaching Google. This one holds the same
   * token without its expiry and never refreshes: it sends the token as anyone who kept it would,
   * so that Google's own answer is what the check observes.
   */
  @Override
  public FileIO openPastExpiry(StorageCredential credential) {
    Map<String, String> config = credential.config();
    OAuth2Credentials held =
        new FixedToken(new AccessToken(config.get(ClientProperties.GCS_OAUTH2_TOKEN), null));
    String project = config.get(ClientProperties.GCS_PROJECT_ID);
    String host = config.get(ClientProperties.GCS_SERVICE_HOST);
    GCSFileIO io =
        new GCSFileIO(
            () -> {
              StorageOptions.Builder options = StorageOptions.newBuilder().setCredentials(held);
              if (project != null) {
                options.setProjectId(project);
              }
              if (host != null) {
                options.setHost(host);
              }
              return options.build().getService();
            });
    io.initialize(Map.of());
    return io;
  }

  /**
   * Google's answer: the HTTP status (a code of 0 means no answer came) and the JSON API's error
   * reason ({@code forbidden}, {@code authError}, ...). A resumable upload's refusal carries no
   * reason of its own, only the raw response it came from, whose JSON body is read for it.
   */
  @Override
  public Optional<StoreAnswer> answer(Throwable error) {
    if (error instanceof BaseServiceException service && service.getCode() > 0) {
      String reason = service.getReason();
      if (reason == null && service.getCause() instanceof HttpResponseException response) {
        reason = reason(response.getContent());
      }
      return Optional.of(new StoreAnswer(service.getCode(), reason));
    }
    return Optional.empty();
  }

  /** {@code error.errors[0].reason} of a JSON API error body, or null. */
  static String reason(String body) {
    if (body == null || body.isBlank()) {
      return null;
    }
    try {
      JsonNode reason = JSON.readTree(body).path("error").path("errors").path(0).path("reason");
      return reason.isTextual() ? reason.asText() : null;
    } catch (IOException e) {
      return null;
    }
  }

  @Override
  public Optional<StorageProfile> withLifetime(StorageProfile profile, int seconds) {
    GcsStorageProfile gcs = (GcsStorageProfile) profile;
    if (gcs.serviceAccount() == null) {
      return Optional.empty(); // the source token's lifetime is Google's to choose
    }
    return Optional.of(gcs.withDuration(seconds));
  }

  @Override
  public String whereToFix(StorageProfile profile) {
    GcsStorageProfile gcs = (GcsStorageProfile) profile;
    String account =
        gcs.serviceAccount() != null
            ? "service account " + gcs.serviceAccount() + " (gcsServiceAccount)"
            : "the account of credential source " + gcs.credentialSourceName();
    return "Where to fix: Google must hold a downscoped token to its Credential Access Boundary"
        + " (one rule per bucket, conditioned on the table's object prefixes); the IAM of "
        + account
        + " is the outer bound. Narrow its roles to the buckets of this catalog's allowed"
        + " locations "
        + gcs.allowedLocations()
        + " (bucket-level roles/storage.objectUser, with an IAM condition on the objects'"
        + " resource.name prefix where you can; no project-wide storage roles), and check that"
        + " the credential source's endpoint is Google's Security Token Service and Cloud"
        + " Storage: a proxy or emulator that drops the access boundary grants everything the"
        + " account can do.";
  }

  /** A token used as is: never refreshed, so a 401 from Google is answered, not retried. */
  private static final class FixedToken extends OAuth2Credentials {
    private static final long serialVersionUID = 1L;

    FixedToken(AccessToken token) {
      super(token);
    }

    @Override
    public AccessToken refreshAccessToken() throws IOException {
      throw new IOException("the storage self-check never refreshes a credential");
    }
  }
}
