package dev.sluice.vending.gcs;

import static java.util.Objects.requireNonNull;

import com.google.auth.oauth2.ExternalAccountCredentials;
import com.google.auth.oauth2.GoogleCredentials;
import com.google.auth.oauth2.ServiceAccountCredentials;
import dev.sluice.vending.CredentialSource;
import dev.sluice.vending.CredentialSourceType;
import dev.sluice.vending.ProfileFields;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.function.Supplier;

/**
 * The catalog's own Google identity, from the server's YAML: application default credentials
 * ({@code google-adc}: GKE Workload Identity, a VM's service account, {@code
 * GOOGLE_APPLICATION_CREDENTIALS}), a service-account key file ({@code google-service-account},
 * {@code keyFile}) or a workload identity federation configuration ({@code
 * google-workload-identity}, {@code credentialConfigFile}: an {@code external_account} JSON). Files
 * are read at boot, so a missing or wrong file stops the server naming its key; ADC is looked up at
 * first use (it may ask the metadata server). Always scoped to cloud-platform, which token exchange
 * requires; the account's own IAM is the outer bound of every token vended from it.
 */
public final class GoogleCredentialSource implements CredentialSource {
  static final String CLOUD_PLATFORM = "https://www.googleapis.com/auth/cloud-platform";

  /**
   * Optional: a GCS JSON API host other than Google's (Private Service Connect, an emulator). It
   * receives this source's bearer tokens, so only the operator's YAML may name it, never a catalog.
   */
  static final String ENDPOINT = "endpoint";

  /** The YAML {@code type}s of a Google source. */
  static final List<CredentialSourceType> TYPES =
      List.of(
          new CredentialSourceType(
              "google-adc", Set.of(ENDPOINT), GoogleCredentialSource::applicationDefault),
          new CredentialSourceType(
              "google-service-account",
              Set.of("keyFile", ENDPOINT),
              GoogleCredentialSource::serviceAccount),
          new CredentialSourceType(
              "google-workload-identity",
              Set.of("credentialConfigFile", ENDPOINT),
              GoogleCredentialSource::workloadIdentity));

  private final String name;
  private final String type;
  private final Supplier<GoogleCredentials> credentials;
  private final String projectId;
  private final String endpoint;

  private GoogleCredentialSource(
      String name,
      String type,
      Supplier<GoogleCredentials> credentials,
      String projectId,
      Map<String, String> fields) {
    this.name = requireNonNull(name, "name");
    this.type = type;
    this.credentials = credentials;
    this.projectId = projectId;
    this.endpoint = endpoint(fields.get(ENDPOINT), "storage.credentialSources." + name + ".");
  }

  private static GoogleCredentialSource applicationDefault(
      String name, Map<String, String> fields) {
    return new GoogleCredentialSource(
        name, "google-adc", memoized(GoogleCredentialSource::lookUpDefault), null, fields);
  }

  private static Supplier<GoogleCredentials> scoped(GoogleCredentials credentials) {
    GoogleCredentials scoped = credentials.createScoped(List.of(CLOUD_PLATFORM));
    return () -> scoped;
  }

  private static String endpoint(String value, String key) {
    return value == null
        ? null
        : ProfileFields.checkedUrl(value, key + ENDPOINT, Set.of("http", "https"));
  }

  private static GoogleCredentialSource serviceAccount(String name, Map<String, String> fields) {
    String key = "storage.credentialSources." + name + ".keyFile";
    Path file = readable(fields.get("keyFile"), key);
    try (InputStream in = Files.newInputStream(file)) {
      ServiceAccountCredentials account = ServiceAccountCredentials.fromStream(in);
      return new GoogleCredentialSource(
          name, "google-service-account", scoped(account), account.getProjectId(), fields);
    } catch (IOException | RuntimeException e) {
      throw new IllegalArgumentException(
          key + " is not a service-account key file (" + reason(e) + ")");
    }
  }

  private static GoogleCredentialSource workloadIdentity(String name, Map<String, String> fields) {
    String key = "storage.credentialSources." + name + ".credentialConfigFile";
    Path file = readable(fields.get("credentialConfigFile"), key);
    try (InputStream in = Files.newInputStream(file)) {
      ExternalAccountCredentials external = ExternalAccountCredentials.fromStream(in);
      return new GoogleCredentialSource(
          name, "google-workload-identity", scoped(external), null, fields);
    } catch (IOException | RuntimeException e) {
      throw new IllegalArgumentException(
          key + " is not an external_account credential configuration (" + reason(e) + ")");
    }
  }

  private static Path readable(String file, String key) {
    if (file == null || file.isBlank()) {
      throw new IllegalArgumentException(key + " is required");
    }
    Path path = Path.of(file);
    if (!Files.isRegularFile(path) || !Files.isReadable(path)) {
      throw new IllegalArgumentException(key + ": no readable file at " + file);
    }
    return path;
  }

  /** The library's message names what is missing or malformed; it never quotes the file. */
  private static String reason(Exception e) {
    return e.getClass().getSimpleName() + (e.getMessage() == null ? "" : ": " + e.getMessage());
  }

  private static GoogleCredentials lookUpDefault() {
    try {
      return GoogleCredentials.getApplicationDefault().createScoped(List.of(CLOUD_PLATFORM));
    } catch (IOException e) {
      throw new UncheckedIOException("Google application default credentials not found", e);
    }
  }

  private static <T> Supplier<T> memoized(Supplier<T> supplier) {
    return new Supplier<>() {
      private volatile T value;

      @Override
      public T get() {
        T current = value;
        if (current == null) {
          synchronized (this) {
            if (value == null) {
              value = supplier.get();
            }
            current = value;
          }
        }
        return current;
      }
    };
  }

  @Override
  public String name() {
    return name;
  }

  @Override
  public String type() {
    return type;
  }

  /** The credentials, scoped to cloud-platform; google-auth refreshes them before they expire. */
  public GoogleCredentials credentials() {
    return credentials.get();
  }

  /** The GCS JSON API host, when not Google's. */
  public Optional<String> endpoint() {
    return Optional.ofNullable(endpoint);
  }

  /** The project of a service-account key, when the source knows one. */
  public Optional<String> projectId() {
    return Optional.ofNullable(projectId);
  }

  @Override
  public String toString() {
    return "GoogleCredentialSource[" + name + ", " + type + "]";
  }
}
