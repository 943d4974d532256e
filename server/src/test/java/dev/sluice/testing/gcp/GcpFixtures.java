package dev.sluice.testing.gcp;

import static java.nio.charset.StandardCharsets.UTF_8;

import com.google.auth.oauth2.AccessToken;
import com.google.auth.oauth2.CredentialAccessBoundary;
import com.google.auth.oauth2.CredentialAccessBoundary.AccessBoundaryRule;
import com.google.auth.oauth2.DownscopedCredentials;
import com.google.auth.oauth2.GoogleCredentials;
import com.google.auth.oauth2.OAuth2Credentials;
import com.google.auth.oauth2.ServiceAccountCredentials;
import com.google.cloud.storage.Storage;
import com.google.cloud.storage.StorageOptions;
import java.io.IOException;
import java.io.InputStream;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;
import java.util.stream.Collectors;
import org.apache.iceberg.gcp.gcs.GCSFileIO;

/** Shared set-up for tests of the {@link GoogleCloudFake} with Google's own client libraries. */
final class GcpFixtures {
  static final String CLOUD_PLATFORM = "https://www.googleapis.com/auth/cloud-platform";
  static final HttpClient HTTP = HttpClient.newHttpClient();

  private GcpFixtures() {}

  /** The account's key file read by google-auth, scoped to cloud-platform. */
  static GoogleCredentials source(ServiceAccount account, Path dir) throws IOException {
    Path key = account.writeKeyFile(dir.resolve(account.email() + ".json"));
    try (InputStream in = Files.newInputStream(key)) {
      return ServiceAccountCredentials.fromStream(in).createScoped(CLOUD_PLATFORM);
    }
  }

  /** Sluice's table condition: objects under {@code prefix}, and lists inside it. */
  static String tableCondition(String bucket, String prefix) {
    return "resource.name.startsWith('projects/_/buckets/"
        + bucket
        + "/objects/"
        + prefix
        + "') || api.getAttribute('storage.googleapis.com/objectListPrefix', '').startsWith('"
        + prefix
        + "')";
  }

  static AccessBoundaryRule rule(String bucket, String condition, String... roles) {
    AccessBoundaryRule.Builder rule =
        AccessBoundaryRule.newBuilder()
            .setAvailableResource("//storage.googleapis.com/projects/_/buckets/" + bucket);
    for (String role : roles) {
      rule.addAvailablePermission("inRole:roles/storage." + role);
    }
    if (condition != null) {
      rule.setAvailabilityCondition(
          AccessBoundaryRule.AvailabilityCondition.newBuilder()
              .setExpression(condition)
              .setTitle("sluice table")
              .build());
    }
    return rule.build();
  }

  /** Read-only on {@code prefix} of {@code bucket}: objectViewer and legacyObjectReader. */
  static CredentialAccessBoundary readOnly(String bucket, String prefix) {
    return CredentialAccessBoundary.newBuilder()
        .addRule(rule(bucket, tableCondition(bucket, prefix), "objectViewer", "legacyObjectReader"))
        .build();
  }

  /** Read-write on {@code prefix}: the read-only rule plus objectUser on the same condition. */
  static CredentialAccessBoundary readWrite(String bucket, String prefix) {
    return CredentialAccessBoundary.newBuilder()
        .addRule(rule(bucket, tableCondition(bucket, prefix), "objectViewer", "legacyObjectReader"))
        .addRule(rule(bucket, tableCondition(bucket, prefix), "objectUser"))
        .build();
  }

  /** A downscoped token from the fake STS, through google-auth's DownscopedCredentials. */
  static AccessToken downscope(GoogleCredentials source, CredentialAccessBoundary boundary)
      throws IOException {
    return DownscopedCredentials.newBuilder()
        .setSourceCredential(source)
        .setCredentialAccessBoundary(boundary)
        .build()
        .refreshAccessToken();
  }

  /** Iceberg's GCSFileIO on the fake with {@code token}, as a vended-credential client sets it. */
  static GCSFileIO fileIO(GoogleCloudFake fake, AccessToken token, Map<String, String> extra) {
    Map<String, String> properties = new HashMap<>();
    properties.put("gcs.service.host", fake.endpoint());
    properties.put("gcs.project-id", "lakehouse");
    properties.put("gcs.oauth2.token", token.getTokenValue());
    properties.put(
        "gcs.oauth2.token-expires-at", Long.toString(token.getExpirationTime().getTime()));
    properties.putAll(extra);
    GCSFileIO io = new GCSFileIO();
    io.initialize(properties);
    return io;
  }

  /** google-cloud-storage's client on the fake with a fixed token (HTTP/JSON transport). */
  static Storage storage(GoogleCloudFake fake, AccessToken token) {
    return StorageOptions.newBuilder()
        .setHost(fake.endpoint())
        .setProjectId("lakehouse")
        .setCredentials(OAuth2Credentials.create(token))
        .build()
        .getService();
  }

  static HttpResponse<String> post(String url, String contentType, String body)
      throws IOException, InterruptedException {
    return HTTP.send(
        HttpRequest.newBuilder(URI.create(url))
            .header("Content-Type", contentType)
            .POST(HttpRequest.BodyPublishers.ofString(body, UTF_8))
            .build(),
        HttpResponse.BodyHandlers.ofString());
  }

  static String form(Map<String, String> fields) {
    return fields.entrySet().stream()
        .map(
            e ->
                java.net.URLEncoder.encode(e.getKey(), UTF_8)
                    + "="
                    + java.net.URLEncoder.encode(e.getValue(), UTF_8))
        .collect(Collectors.joining("&"));
  }
}
