import java.io.File;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.lang.reflect.Constructor;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.HashMap;
import java.util.Locale;
import java.util.Map;
import org.apache.iceberg.CatalogProperties;
import org.apache.iceberg.CatalogUtil;
import org.apache.iceberg.catalog.Catalog;
import org.apache.iceberg.io.FileIO;
import org.apache.iceberg.io.InputFile;
import org.apache.iceberg.io.OutputFile;
import org.apache.iceberg.io.PositionOutputStream;
import org.apache.iceberg.io.SeekableInputStream;
import org.apache.iceberg.jdbc.JdbcCatalog;
import org.apache.iceberg.rest.RESTCatalogAdapter;
import org.apache.iceberg.rest.RESTCatalogServlet;
import org.eclipse.jetty.server.Server;
import org.eclipse.jetty.server.ServerConnector;
import org.eclipse.jetty.servlet.ServletContextHandler;
import org.eclipse.jetty.servlet.ServletHolder;

/**
 * Iceberg's reference REST server (RESTCatalogServer of iceberg-open-api's test fixtures: its
 * JdbcCatalog backend with schema V1, its RESTServerCatalogAdapter and RESTCatalogServlet), bound
 * to one address and without Hadoop. Run by the JDK's source launcher (no build step) on the class
 * path that e2e/pom.xml copies into target/reference-lib; see ReferenceServerProcess.
 *
 * <p>Configured by CATALOG_* environment variables exactly as the original (CATALOG_FOO_BAR=x is
 * foo.bar=x, a double underscore a dash: CATALOG_IO__IMPL is io-impl): CATALOG_WAREHOUSE,
 * CATALOG_URI, CATALOG_REST_PORT, CATALOG_REST_HOST (default 127.0.0.1), and for S3FileIO
 * CATALOG_IO__IMPL=org.apache.iceberg.aws.s3.S3FileIO with its s3.* keys. Without io-impl, a
 * local FileIO of its own serves file: warehouses (JdbcCatalog's default, HadoopFileIO, would need
 * Hadoop), keeping every location exactly as given.
 */
public final class ReferenceServer {
  private ReferenceServer() {}

  public static void main(String[] args) throws Exception {
    Map<String, String> config = environmentCatalogConfig(System.getenv());
    config.putIfAbsent(CatalogProperties.URI, "jdbc:sqlite::memory:");
    config.putIfAbsent("jdbc.schema-version", "V1");
    if (!config.containsKey(CatalogProperties.WAREHOUSE_LOCATION)) {
      throw new IllegalArgumentException("Set CATALOG_WAREHOUSE");
    }
    String ioImpl = config.remove(CatalogProperties.FILE_IO_IMPL);
    FileIO io =
        ioImpl == null ? new LocalFileIO() : CatalogUtil.loadFileIO(ioImpl, config, null);
    JdbcCatalog catalog = new JdbcCatalog(properties -> io, null, true);
    catalog.initialize(config.getOrDefault("catalog.name", "rest_backend"), config);

    RESTCatalogServlet servlet = new RESTCatalogServlet(serverAdapter(catalog, config));
    ServletContextHandler context = new ServletContextHandler(ServletContextHandler.NO_SESSIONS);
    context.addServlet(new ServletHolder(servlet), "/*");
    Server server = new Server();
    ServerConnector connector = new ServerConnector(server);
    connector.setHost(config.getOrDefault("rest.host", "127.0.0.1"));
    connector.setPort(Integer.parseInt(config.getOrDefault("rest.port", "8181")));
    server.addConnector(connector);
    server.setHandler(context);
    server.setStopAtShutdown(true);
    server.start();
    System.out.println(
        "reference REST server on " + connector.getHost() + ":" + connector.getLocalPort());
    server.join();
  }

  /** new RESTServerCatalogAdapter(new RESTCatalogServer.CatalogContext(catalog, config)). */
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

  /** RCKUtils.environmentCatalogConfig (package-private there). */
  static Map<String, String> environmentCatalogConfig(Map<String, String> env) {
    Map<String, String> config = new HashMap<>();
    env.forEach(
        (key, value) -> {
          if (key.startsWith("CATALOG_")) {
            config.put(
                key.substring("CATALOG_".length())
                    .replace("__", "-")
                    .replace("_", ".")
                    .toLowerCase(Locale.ROOT),
                value);
          }
        });
    return config;
  }

  /** Local files under file: locations, each InputFile and OutputFile keeping its location. */
  static final class LocalFileIO implements FileIO {
    @Override
    public InputFile newInputFile(String location) {
      InputFile local = org.apache.iceberg.Files.localInput(file(location));
      return new InputFile() {
        @Override
        public long getLength() {
          return local.getLength();
        }

        @Override
        public SeekableInputStream newStream() {
          return local.newStream();
        }

        @Override
        public String location() {
          return location;
        }

        @Override
        public boolean exists() {
          return local.exists();
        }
      };
    }

    @Override
    public OutputFile newOutputFile(String location) {
      File file = file(location);
      OutputFile local = org.apache.iceberg.Files.localOutput(file);
      return new OutputFile() {
        @Override
        public PositionOutputStream create() {
          mkdirs(file);
          return local.create();
        }

        @Override
        public PositionOutputStream createOrOverwrite() {
          mkdirs(file);
          return local.createOrOverwrite();
        }

        @Override
        public String location() {
          return location;
        }

        @Override
        public InputFile toInputFile() {
          return newInputFile(location);
        }
      };
    }

    @Override
    public void deleteFile(String location) {
      try {
        Files.deleteIfExists(file(location).toPath());
      } catch (IOException e) {
        throw new UncheckedIOException(e);
      }
    }

    private static File file(String location) {
      Path path =
          location.startsWith("file:") ? Paths.get(URI.create(normalize(location))) : Paths.get(location);
      return path.toFile();
    }

    /** file:/a and file:///a alike. */
    private static String normalize(String location) {
      return location.startsWith("file:///") ? location : "file://" + location.substring(5);
    }

    private static void mkdirs(File file) {
      File parent = file.getParentFile();
      if (parent != null && !parent.isDirectory() && !parent.mkdirs() && !parent.isDirectory()) {
        throw new UncheckedIOException(new IOException("cannot create " + parent));
      }
    }
  }
}
