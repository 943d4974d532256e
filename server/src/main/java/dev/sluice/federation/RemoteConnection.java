package dev.sluice.federation;

import dev.sluice.api.AuthenticationParameters;
import dev.sluice.api.ConnectionConfigInfo;
import java.io.IOException;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.apache.iceberg.catalog.Catalog;
import org.apache.iceberg.catalog.SessionCatalog;
import org.apache.iceberg.catalog.SupportsNamespaces;
import org.apache.iceberg.catalog.ViewCatalog;
import org.apache.iceberg.exceptions.ServiceUnavailableException;
import org.apache.iceberg.rest.ErrorHandlers;
import org.apache.iceberg.rest.HTTPClient;
import org.apache.iceberg.rest.RESTClient;
import org.apache.iceberg.rest.RESTSessionCatalog;
import org.apache.iceberg.rest.RESTUtil;
import org.apache.iceberg.rest.ResourcePaths;
import org.apache.iceberg.rest.auth.AuthManager;
import org.apache.iceberg.rest.auth.AuthManagers;
import org.apache.iceberg.rest.auth.AuthProperties;
import org.apache.iceberg.rest.auth.AuthSession;
import org.apache.iceberg.rest.auth.OAuth2Properties;
import org.apache.iceberg.rest.responses.ConfigResponse;

/**
 * One federated catalog's way to its remote, through Iceberg's own REST client: a {@link
 * RESTSessionCatalog} with one service-level session (namespaces, views, register, drop, rename),
 * and the same client's lower level ({@link RESTClient} with the remote's {@link ResourcePaths})
 * for what must reach the remote exactly as asked: table loads, creates and commits (requirements
 * and updates), and listings read one page at a time. Opened once per catalog and connection,
 * closed when the catalog changes or is dropped.
 */
final class RemoteConnection implements AutoCloseable {
  static final String ACCESS_DELEGATION = "X-Iceberg-Access-Delegation";

  private final RemoteErrors.Remote remote;
  private final RESTSessionCatalog session;
  private final Catalog tables;
  private final ViewCatalog views;
  private final SupportsNamespaces namespaces;
  private final HTTPClient http;
  private final AuthManager auth;
  private final RESTClient client;
  private final ResourcePaths paths;
  private final String separator;
  private final Map<String, String> tableHeaders;

  private RemoteConnection(
      RemoteErrors.Remote remote,
      RESTSessionCatalog session,
      HTTPClient http,
      AuthManager auth,
      RESTClient client,
      Map<String, String> merged,
      boolean passCredentials) {
    this.remote = remote;
    this.session = session;
    SessionCatalog.SessionContext context = SessionCatalog.SessionContext.createEmpty();
    this.tables = session.asCatalog(context);
    this.views = session.asViewCatalog(context);
    this.namespaces = (SupportsNamespaces) tables;
    this.http = http;
    this.auth = auth;
    this.client = client;
    this.paths = ResourcePaths.forCatalogProperties(merged);
    this.separator = merged.getOrDefault("namespace-separator", "%1F");
    // DROP: the remote is never asked for access delegation; PASS: for vended credentials.
    this.tableHeaders =
        passCredentials ? Map.of(ACCESS_DELEGATION, "vended-credentials") : Map.of();
  }

  /**
   * Connects to the remote {@code connection} names for Sluice's catalog {@code catalog}: reads its
   * {@code /v1/config} and gets a token, with the secret the YAML holds under the connection's
   * reference. A remote that does not answer, or a reference the YAML lacks: 503.
   */
  static RemoteConnection open(
      String catalog, ConnectionConfigInfo connection, FederationSettings settings) {
    RemoteErrors.Remote remote = new RemoteErrors.Remote(catalog, connection.remoteHost());
    Map<String, String> props = properties(remote, connection, settings);
    return RemoteErrors.call(
        remote,
        () -> {
          RESTSessionCatalog session =
              new RESTSessionCatalog(
                  RemoteConnection::httpClient, (context, conf) -> new InertFileIO());
          HTTPClient http = null;
          AuthManager auth = null;
          try {
            session.initialize("federation-" + catalog, props);
            http = httpClient(props);
            auth = AuthManagers.loadAuthManager("federation-" + catalog, props);
            AuthSession init = auth.initSession(http, props);
            Map<String, String> query =
                connection.remoteCatalogName() == null
                    ? Map.of()
                    : Map.of("warehouse", connection.remoteCatalogName());
            ConfigResponse config =
                http.withAuthSession(init)
                    .get(
                        ResourcePaths.config(),
                        query,
                        ConfigResponse.class,
                        Map.of(),
                        ErrorHandlers.configErrorHandler());
            Map<String, String> merged = config.merge(props);
            AuthSession catalogSession = auth.catalogSession(http, merged);
            return new RemoteConnection(
                remote,
                session,
                http,
                auth,
                http.withAuthSession(catalogSession),
                merged,
                connection.passesRemoteCredentials());
          } catch (RuntimeException e) {
            closeQuietly(session, http, auth);
            throw e;
          }
        });
  }

  private static HTTPClient httpClient(Map<String, String> props) {
    return HTTPClient.builder(props)
        .uri(props.get("uri"))
        .withHeaders(RESTUtil.configHeaders(props))
        .build();
  }

  /** Iceberg's REST client properties for {@code connection}; the secret only in memory. */
  private static Map<String, String> properties(
      RemoteErrors.Remote remote, ConnectionConfigInfo connection, FederationSettings settings) {
    Map<String, String> props = new HashMap<>();
    props.put("uri", RESTUtil.stripTrailingSlash(connection.uri()));
    if (connection.remoteCatalogName() != null) {
      props.put("warehouse", connection.remoteCatalogName());
    }
    props.put("rest.client.connection-timeout-ms", millis(settings.connectTimeout()));
    props.put("rest.client.socket-timeout-ms", millis(settings.requestTimeout()));
    // No retries behind the engine's back: its own client retries what it may.
    props.put("rest.client.max-retries", "0");
    props.put("rest-metrics-reporting-enabled", "false");
    AuthenticationParameters auth = connection.authenticationParameters();
    switch (auth.authenticationType()) {
      case AuthenticationParameters.OAUTH -> {
        props.put(AuthProperties.AUTH_TYPE, AuthProperties.AUTH_TYPE_OAUTH2);
        props.put(
            OAuth2Properties.CREDENTIAL, auth.clientId() + ":" + secret(remote, auth, settings));
        props.put(
            OAuth2Properties.OAUTH2_SERVER_URI,
            auth.tokenUri() != null
                ? auth.tokenUri()
                : RESTUtil.resolveEndpoint(props.get("uri"), ResourcePaths.tokens()));
        if (auth.scopes() != null && !auth.scopes().isEmpty()) {
          props.put(OAuth2Properties.SCOPE, String.join(" ", auth.scopes()));
        }
        props.put(OAuth2Properties.TOKEN_EXCHANGE_ENABLED, "false");
      }
      case AuthenticationParameters.BEARER -> {
        props.put(AuthProperties.AUTH_TYPE, AuthProperties.AUTH_TYPE_OAUTH2);
        props.put(OAuth2Properties.TOKEN, secret(remote, auth, settings));
        props.put(OAuth2Properties.TOKEN_REFRESH_ENABLED, "false");
        props.put(OAuth2Properties.TOKEN_EXCHANGE_ENABLED, "false");
      }
      default -> props.put(AuthProperties.AUTH_TYPE, AuthProperties.AUTH_TYPE_NONE);
    }
    return props;
  }

  private static String secret(
      RemoteErrors.Remote remote, AuthenticationParameters auth, FederationSettings settings) {
    return settings
        .secret(auth.secretReference())
        .orElseThrow(
            () ->
                new ServiceUnavailableException(
                    "Cannot reach %s: the server's federation.secrets defines no secret %s",
                    remote, auth.secretReference()));
  }

  private static String millis(java.time.Duration duration) {
    return Long.toString(duration.toMillis());
  }

  RemoteErrors.Remote remote() {
    return remote;
  }

  Catalog tables() {
    return tables;
  }

  ViewCatalog views() {
    return views;
  }

  SupportsNamespaces namespaces() {
    return namespaces;
  }

  RESTClient client() {
    return client;
  }

  ResourcePaths paths() {
    return paths;
  }

  /** The remote's namespace separator in query parameters (its config, else Iceberg's default). */
  String separator() {
    return separator;
  }

  /**
   * Headers of table loads, creates and commits: whether the remote is asked to delegate access.
   */
  Map<String, String> tableHeaders() {
    return tableHeaders;
  }

  @Override
  public void close() {
    closeQuietly(session, http, auth);
  }

  private static void closeQuietly(RESTSessionCatalog session, HTTPClient http, AuthManager auth) {
    for (AutoCloseable each : java.util.Arrays.asList(session, auth, http)) {
      if (each == null) {
        continue;
      }
      try {
        each.close();
      } catch (IOException | RuntimeException e) {
        // Closing a client whose remote is gone fails: nothing to keep.
      } catch (Exception e) {
        // AuthManager.close declares none; HTTPClient and the catalog declare IOException.
      }
    }
  }

  @Override
  public String toString() {
    return "RemoteConnection[" + remote + "]";
  }

  static List<String> levels(org.apache.iceberg.catalog.Namespace namespace) {
    return List.of(namespace.levels());
  }
}
