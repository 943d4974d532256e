package dev.sluice.api;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonProperty;
import java.net.URI;
import java.net.URISyntaxException;
import java.util.Locale;

/**
 * How a federated ({@code EXTERNAL}) catalog reaches its remote catalog, in Polaris's shape: the
 * remote's Iceberg REST base {@code uri}, the remote catalog's name ({@code remoteCatalogName},
 * sent as its {@code warehouse}), how Sluice authenticates there, and whether the remote's own
 * storage credentials may reach engines ({@code remoteCredentials}: {@code DROP}, the default, or
 * {@code PASS}). It never carries a secret: {@link AuthenticationParameters#secretReference()}
 * names one in the server's YAML ({@code federation.secrets}).
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
public record ConnectionConfigInfo(
    @JsonProperty(required = true) String connectionType,
    @JsonProperty(required = true) String uri,
    String remoteCatalogName,
    @JsonProperty(required = true) AuthenticationParameters authenticationParameters,
    String remoteCredentials) {
  public static final String ICEBERG_REST = "ICEBERG_REST";
  public static final String DROP = "DROP";
  public static final String PASS = "PASS";

  public ConnectionConfigInfo {
    Fields.nonEmpty(connectionType, "connectionConfigInfo.connectionType");
    connectionType = connectionType.toUpperCase(Locale.ROOT);
    if (!connectionType.equals(ICEBERG_REST)) {
      throw new IllegalArgumentException(
          "Unsupported connectionConfigInfo.connectionType: "
              + connectionType
              + " (supported: "
              + ICEBERG_REST
              + ")");
    }
    checkHttpUri(Fields.nonEmpty(uri, "connectionConfigInfo.uri"), "connectionConfigInfo.uri");
    if (remoteCatalogName != null && remoteCatalogName.isEmpty()) {
      remoteCatalogName = null;
    }
    if (authenticationParameters == null) {
      throw new IllegalArgumentException(
          "Missing field: connectionConfigInfo.authenticationParameters");
    }
    remoteCredentials =
        remoteCredentials == null ? DROP : remoteCredentials.toUpperCase(Locale.ROOT);
    if (!remoteCredentials.equals(DROP) && !remoteCredentials.equals(PASS)) {
      throw new IllegalArgumentException(
          "Invalid connectionConfigInfo.remoteCredentials: "
              + remoteCredentials
              + " (DROP or PASS)");
    }
  }

  /** True when the operator let the remote's own storage credentials through ({@code PASS}). */
  public boolean passesRemoteCredentials() {
    return PASS.equals(remoteCredentials);
  }

  /** The remote's host and port, for messages: never a path, query or user info. */
  public String remoteHost() {
    URI parsed = URI.create(uri);
    return parsed.getPort() < 0 ? parsed.getHost() : parsed.getHost() + ":" + parsed.getPort();
  }

  static void checkHttpUri(String value, String field) {
    try {
      URI parsed = new URI(value);
      String scheme = parsed.getScheme();
      if (scheme == null
          || !(scheme.equalsIgnoreCase("http") || scheme.equalsIgnoreCase("https"))
          || parsed.getHost() == null) {
        throw new IllegalArgumentException(
            "Invalid " + field + ": " + value + " (an http or https URL with a host)");
      }
      if (parsed.getUserInfo() != null) {
        throw new IllegalArgumentException(
            "Invalid " + field + ": user info in the URL (name a secretReference instead)");
      }
    } catch (URISyntaxException e) {
      throw new IllegalArgumentException("Invalid " + field + ": " + value + " (not a URL)");
    }
  }
}
