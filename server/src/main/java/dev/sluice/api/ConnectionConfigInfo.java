package dev.sluice.api;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonProperty;
import java.net.URI;
import java.net.URISyntaxException;
import java.util.Locale;

/**
 * How a federated ({@code EXTERNAL}) catalog reaches its remote catalog, in Polaris's shape: the
 * remote's Iceberg REST base {@code uri}, the remote catalog's name ({@code remoteCatalogName},
 * sent as its {@code warehouse}), how Sluice authenticates there, and what becomes of the remote's
 * own storage credentials ({@code remoteCredentials}: {@code DROP}, the only value offered: the
 * remote is never asked for any, and engines get Sluice's alone). It never carries a secret: {@link
 * AuthenticationParameters#secretReference()} names one in the server's YAML ({@code
 * federation.secrets}).
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
    if (!remoteCredentials.equals(DROP)) {
      // PASS (Polaris's pass-through) is refused rather than accepted and ignored: engines get
      // Sluice's credentials, scoped by its rules, or none.
      throw new IllegalArgumentException(
          "Invalid connectionConfigInfo.remoteCredentials: "
              + remoteCredentials
              + " (only DROP: the remote's own storage credentials never reach engines)");
    }
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
