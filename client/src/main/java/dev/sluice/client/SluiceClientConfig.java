package dev.sluice.client;

import static java.util.Objects.requireNonNull;

import java.net.URI;
import java.time.Duration;
import java.util.Map;

/**
 * Where Sluice is and who the client is: the catalog URI (what Iceberg clients call {@code uri},
 * e.g. {@code https://sluice.example.com/api/catalog}), the warehouse (catalog name), and either an
 * OAuth2 client credential ({@code clientId:secret}) or a fixed bearer token. {@link #toString()}
 * shows no secret.
 */
public record SluiceClientConfig(
    URI uri,
    String warehouse,
    String clientId,
    String clientSecret,
    String token,
    String scope,
    URI tokenEndpoint,
    Duration requestTimeout) {

  /** The Hadoop key prefix for the Parquet path: {@code fs.s3a.sluice.uri} and so on. */
  public static final String HADOOP_PREFIX = "fs.s3a.sluice.";

  public static final String URI_KEY = "uri";
  public static final String WAREHOUSE_KEY = "warehouse";
  public static final String CREDENTIAL_KEY = "credential";
  public static final String TOKEN_KEY = "token";
  public static final String SCOPE_KEY = "scope";
  public static final String OAUTH2_SERVER_URI_KEY = "oauth2-server-uri";
  public static final String DEFAULT_SCOPE = "PRINCIPAL_ROLE:ALL";
  public static final Duration DEFAULT_REQUEST_TIMEOUT = Duration.ofSeconds(30);

  public SluiceClientConfig {
    requireNonNull(uri, "uri");
    requireNonNull(scope, "scope");
    requireNonNull(tokenEndpoint, "tokenEndpoint");
    requireNonNull(requestTimeout, "requestTimeout");
    if (!"http".equalsIgnoreCase(uri.getScheme()) && !"https".equalsIgnoreCase(uri.getScheme())) {
      throw new IllegalArgumentException("the Sluice URI must be http(s), got " + uri);
    }
    boolean clientCredential = clientId != null && clientSecret != null;
    if (!clientCredential && token == null) {
      throw new IllegalArgumentException(
          "no way to authenticate to Sluice: set a client credential (clientId:secret) or a token");
    }
  }

  /**
   * Reads the settings from engine properties: each key {@code K} as plain {@code K} (the Iceberg
   * catalog properties Comet forwards on the Iceberg path) or, failing that, as {@code
   * fs.s3a.sluice.K} (the Hadoop keys of the Parquet path): {@code uri}, {@code warehouse}, {@code
   * credential} ({@code clientId:secret}) or {@code token}, and optionally {@code scope} and {@code
   * oauth2-server-uri}. Errors name the keys, never their values.
   */
  public static SluiceClientConfig fromProperties(Map<String, String> properties) {
    requireNonNull(properties, "properties");
    String uri = get(properties, URI_KEY);
    if (uri == null) {
      throw new IllegalArgumentException(
          "the Sluice URI is not set: set " + HADOOP_PREFIX + URI_KEY + " (or the catalog's uri)");
    }
    URI base;
    try {
      base = URI.create(stripTrailingSlash(uri.trim()));
    } catch (IllegalArgumentException e) {
      throw new IllegalArgumentException(
          "the Sluice URI (" + HADOOP_PREFIX + URI_KEY + " or uri) is not a URI", e);
    }
    String credential = get(properties, CREDENTIAL_KEY);
    String token = get(properties, TOKEN_KEY);
    String clientId = null;
    String secret = null;
    if (credential != null) {
      int colon = credential.indexOf(':');
      if (colon <= 0 || colon == credential.length() - 1) {
        throw new IllegalArgumentException(
            HADOOP_PREFIX
                + CREDENTIAL_KEY
                + " (or the catalog's credential) must be <clientId>:<secret>");
      }
      clientId = credential.substring(0, colon);
      secret = credential.substring(colon + 1);
    } else if (token == null) {
      throw new IllegalArgumentException(
          "no Sluice credential: set "
              + HADOOP_PREFIX
              + CREDENTIAL_KEY
              + " (or the catalog's credential) to <clientId>:<secret>, or a token");
    }
    String scope = get(properties, SCOPE_KEY);
    String oauth = get(properties, OAUTH2_SERVER_URI_KEY);
    URI tokenEndpoint = oauth != null ? URI.create(oauth.trim()) : defaultTokenEndpoint(base);
    return new SluiceClientConfig(
        base,
        get(properties, WAREHOUSE_KEY),
        clientId,
        secret,
        token,
        scope == null ? DEFAULT_SCOPE : scope,
        tokenEndpoint,
        DEFAULT_REQUEST_TIMEOUT);
  }

  /** A client-credentials configuration with the defaults. */
  public static SluiceClientConfig of(
      URI uri, String warehouse, String clientId, String clientSecret) {
    URI base = URI.create(stripTrailingSlash(uri.toString()));
    return new SluiceClientConfig(
        base,
        warehouse,
        requireNonNull(clientId, "clientId"),
        requireNonNull(clientSecret, "clientSecret"),
        null,
        DEFAULT_SCOPE,
        defaultTokenEndpoint(base),
        DEFAULT_REQUEST_TIMEOUT);
  }

  /** This configuration with another request timeout. */
  public SluiceClientConfig withRequestTimeout(Duration timeout) {
    return new SluiceClientConfig(
        uri, warehouse, clientId, clientSecret, token, scope, tokenEndpoint, timeout);
  }

  /** Iceberg's default: {@code <uri>/v1/oauth/tokens}. */
  static URI defaultTokenEndpoint(URI base) {
    return URI.create(base + "/v1/oauth/tokens");
  }

  /**
   * The value of {@code <key>}, else of {@code fs.s3a.sluice.<key>}; blank counts as unset. A bare
   * key can only be an Iceberg catalog property (Comet forwards nothing but {@code fs.s3a.*} keys
   * on the Parquet path), and a catalog's own identity wins on its Iceberg path.
   */
  static String get(Map<String, String> properties, String key) {
    String value = properties.get(key);
    if (value == null || value.isBlank()) {
      value = properties.get(HADOOP_PREFIX + key);
    }
    return value == null || value.isBlank() ? null : value;
  }

  private static String stripTrailingSlash(String s) {
    String out = s;
    while (out.endsWith("/")) {
      out = out.substring(0, out.length() - 1);
    }
    return out;
  }

  @Override
  public String toString() {
    return "SluiceClientConfig[uri="
        + uri
        + ", warehouse="
        + warehouse
        + ", clientId="
        + clientId
        + ", auth="
        + (clientSecret != null ? "client credential" : "token")
        + ", scope="
        + scope
        + "]";
  }
}
