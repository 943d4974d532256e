package dev.sluice.bench.reference;

import java.lang.reflect.Constructor;
import java.util.HashMap;
import java.util.Locale;
import java.util.Map;
import org.apache.hadoop.conf.Configuration;
import org.apache.iceberg.CatalogProperties;
import org.apache.iceberg.CatalogUtil;
import org.apache.iceberg.catalog.Catalog;
import org.apache.iceberg.jdbc.JdbcCatalog;
import org.apache.iceberg.rest.RESTCatalogAdapter;
import org.apache.iceberg.rest.RESTCatalogServlet;
import org.eclipse.jetty.server.Server;
import org.eclipse.jetty.server.ServerConnector;
import org.eclipse.jetty.server.handler.gzip.GzipHandler;
import org.eclipse.jetty.servlet.ServletContextHandler;
import org.eclipse.jetty.servlet.ServletHolder;

/**
 * Iceberg's reference REST server ({@code org.apache.iceberg.rest.RESTCatalogServer} from
 * iceberg-open-api's test fixtures), wired here the same way but bound to one address.
 *
 * <p>RESTCatalogServer itself binds every interface ({@code new Server(port)}) and its constructors
 * are package-private, so this main repeats its {@code start()}: the same backend catalog defaults
 * (JdbcCatalog, schema V1), the same adapter ({@code RESTServerCatalogAdapter}, package-private
 * too, hence the reflection), the same servlet, context and GzipHandler, and a connector with
 * reuse-port on {@code rest.host}. Configuration comes from {@code CATALOG_*} environment variables
 * exactly as for the original ({@code CATALOG_URI=jdbc:sqlite:file:…}, {@code CATALOG_WAREHOUSE},
 * {@code CATALOG_REST_PORT}; {@code CATALOG_REST_HOST} is the one addition, default 127.0.0.1).
 */
public final class ReferenceServerMain {
  private ReferenceServerMain() {}

  public static void main(String[] args) throws Exception {
    Map<String, String> config = environmentCatalogConfig(System.getenv());
    config.putIfAbsent(CatalogProperties.CATALOG_IMPL, JdbcCatalog.class.getName());
    config.putIfAbsent(CatalogProperties.URI, "jdbc:sqlite::memory:");
    config.putIfAbsent("jdbc.schema-version", "V1");
    if (!config.containsKey(CatalogProperties.WAREHOUSE_LOCATION)) {
      throw new IllegalArgumentException("Set CATALOG_WAREHOUSE");
    }
    String name = config.getOrDefault("catalog.name", "rest_backend");
    Catalog catalog = CatalogUtil.buildIcebergCatalog(name, config, new Configuration());

    RESTCatalogServlet servlet = new RESTCatalogServlet(serverAdapter(catalog, config));
    ServletContextHandler context = new ServletContextHandler(ServletContextHandler.NO_SESSIONS);
    context.addServlet(new ServletHolder(servlet), "/*");
    context.insertHandler(new GzipHandler());

    Server server = new Server();
    ServerConnector connector = new ServerConnector(server);
    connector.setHost(config.getOrDefault("rest.host", "127.0.0.1"));
    connector.setPort(Integer.parseInt(config.getOrDefault("rest.port", "8181")));
    connector.setReusePort(true);
    server.addConnector(connector);
    server.setHandler(context);
    server.setStopAtShutdown(true);
    server.start();
    System.out.println(
        "reference REST server on " + connector.getHost() + ":" + connector.getLocalPort());
    server.join();
  }

  /**
   * {@code new RESTServerCatalogAdapter(new RESTCatalogServer.CatalogContext(catalog, config))}.
   */
  private static RESTCatalogAdapter serverAdapter(Catalog catalog, Map<String, String> config)
      throws Exception {
    Class<?> contextClass =
        Class.forName("org.apache.iceberg.rest.RESTCatalogServer$CatalogContext");
    Constructor<?> newContext = contextClass.getDeclaredConstructor(Catalog.class, Map.class);
    newContext.setAccessible(true);
    Class<?> adapterClass = Class.forName("org.apache.iceberg.rest.RESTServerCatalogAdapter");
    Constructor<?> newAdapter = adapterClass.getDeclaredConstructor(contextClass);
    newAdapter.setAccessible(true);
    return (RESTCatalogAdapter) newAdapter.newInstance(newContext.newInstance(catalog, config));
  }

  /**
   * RCKUtils.environmentCatalogConfig (package-private there): {@code CATALOG_FOO_BAR=x} becomes
   * {@code foo.bar=x} and a double underscore a dash ({@code CATALOG_IO__IMPL} → {@code io-impl}).
   */
  static Map<String, String> environmentCatalogConfig(Map<String, String> env) {
    Map<String, String> config = new HashMap<>();
    env.forEach(
        (key, value) -> {
          if (key.startsWith("CATALOG_")) {
            String property =
                key.substring("CATALOG_".length())
                    .replace("__", "-")
                    .replace("_", ".")
                    .toLowerCase(Locale.ROOT);
            config.put(property, value);
          }
        });
    return config;
  }
}
