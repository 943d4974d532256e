package dev.sluice.federation;

import static java.util.Objects.requireNonNull;

import dev.sluice.api.AuthenticationParameters;
import dev.sluice.api.ConnectionConfigInfo;
import java.util.HashMap;
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

  private final RemoteErrors.Remote remote;
  private final String catalog;
  private final ConnectionConfigInfo connection;
  private final FederationSettings settings;
  private final Map<String, String> tableHeaders;
  private volatile Opened opened;
  private boolean closed;

  /** What is open once the remote answered: the session catalog and the lower-level client. */
  private record Opened(
      RESTSessionCatalog session,
      Catalog tables,
      ViewCatalog views,
      SupportsNamespaces namespaces,
      HTTPClient http,
      AuthManager auth,
      RESTClient client,
      ResourcePaths paths,
      String separator) {}

  /**
   * The way to the remote {@code connection} names for Sluice's catalog {@code catalog}. Nothing is
   * sent until first needed: then the remote's {@code /v1/config} is read and a token obtained,
   * with the secret the YAML holds under the connection's reference; a remote that does not answer,
   * or a reference the YAML lacks, is a 503 then, and the next call tries again.
   */
  RemoteConnection(String catalog, ConnectionConfigInfo connection, FederationSettings settings) {
    this.catalog = requireNonNull(catalog, "catalog");
    this.connection = requireNonNull(connection, "connection");
    this.settings = requireNonNull(settings, "settings");
    this.remote = new RemoteErrors.Remote(catalog, connection.remoteHost());
    // DROP: the remote is never asked for access delegation.
    this.tableHeaders = Map.of();
  }

  private Opened opened() {
    Opened current = opened;
    if (current != null) {
      return current;
    }
    synchronized (this) {
      if (closed) {
        throw new ServiceUnavailableException("The connection to %s was closed", remote);
      }
      if (opened == null) {
        opened = RemoteErrors.opening(remote, this::open);
      }
      return opened;
    }
  }

  private Opened open() {
    Map<String, String> props = properties(remote, connection, settings);
    RESTSessionCatalog session =
        new RESTSessionCatalog(RemoteConnection::httpClient, (context, conf) -> new InertFileIO());
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
      SessionCatalog.SessionContext context = SessionCatalog.SessionContext.createEmpty();
      Catalog tables = session.asCatalog(context);
      return new Opened(
          session,
          tables,
          session.asViewCatalog(context),
          (SupportsNamespaces) tables,
          http,
          auth,
          http.withAuthSession(catalogSession),
          ResourcePaths.forCatalogProperties(merged),
          merged.getOrDefault("namespace-separator", "%1F"));
    } catch (RuntimeException e) {
      closeQuietly(session, http, auth);
      throw e;
    }
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
    // One retry at most behind the engine's back (Iceberg's client needs one): its own client
    // retries what it may.
    props.put("rest.client.max-retries", "1");
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
    return opened().tables();
  }

  ViewCatalog views() {
    return opened().views();
  }

  SupportsNamespaces namespaces() {
    return opened().namespaces();
  }

  RESTClient client() {
    return opened().client();
  }

  ResourcePaths paths() {
    return opened().paths();
  }

  /** The remote's namespace separator in query parameters (its config, else Iceberg's default). */
  String separator() {
    return opened().separator();
  }

  /**
   * Headers of table loads, creates and commits: whether the remote is asked to delegate access.
   */
  Map<String, String> tableHeaders() {
    return tableHeaders;
  }

  @Override
  public synchronized void close() {
    closed = true;
    Opened current = opened;
    opened = null;
    if (current != null) {
      closeQuietly(current.session(), current.http(), current.auth());
    }
  }

  private static void closeQuietly(RESTSessionCatalog session, HTTPClient http, AuthManager auth) {
    for (AutoCloseable each : java.util.Arrays.asList(session, auth, http)) {
      if (each == null) {
        continue;
      }
      try {
        each.close();
      } catch (Exception e) {
        // Closing a client whose remote is gone may fail: nothing is left to keep.
      }
    }
  }

  @Override
  public String toString() {
    return "RemoteConnection[" + remote + "]";
  }
}
