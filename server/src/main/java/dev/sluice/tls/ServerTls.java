package dev.sluice.tls;

import java.util.List;
import java.util.Objects;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import org.eclipse.jetty.util.ssl.SslContextFactory;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Jetty's TLS for the server: TLS 1.2 and 1.3 only, with the JDK's cipher suites minus Jetty's
 * weak-suite exclusions; client certificates wanted (never needed) when {@code clientAuth} names a
 * CA, so that the catalog API works without one and the management API can insist. The key material
 * is re-read every {@link TlsSettings#reloadInterval()}; a changed, consistent pair is swapped in
 * with {@link SslContextFactory#reload}, which new handshakes use while established connections
 * keep theirs.
 */
public final class ServerTls implements AutoCloseable {
  private static final Logger LOG = LoggerFactory.getLogger(ServerTls.class);
  static final String[] PROTOCOLS = {"TLSv1.3", "TLSv1.2"};

  private final TlsSettings settings;
  private final SslContextFactory.Server factory;
  private final ScheduledExecutorService scanner;
  private volatile KeyMaterial current;
  private volatile String lastProblem;

  private ServerTls(TlsSettings settings, KeyMaterial material) {
    this.settings = Objects.requireNonNull(settings, "settings");
    this.current = Objects.requireNonNull(material, "material");
    this.factory = new SslContextFactory.Server();
    factory.setIncludeProtocols(PROTOCOLS);
    factory.setRenegotiationAllowed(false);
    apply(factory, material);
    if (settings.clientCaFile() != null) {
      factory.setTrustStore(
          KeyMaterial.trustStore(settings.clientCaFile(), "server.tls.clientAuth.caFile"));
      factory.setWantClientAuth(true);
    }
    this.scanner =
        Executors.newSingleThreadScheduledExecutor(
            r -> {
              Thread t = new Thread(r, "sluice-tls-reload");
              t.setDaemon(true);
              return t;
            });
    long every = settings.reloadInterval().toMillis();
    scanner.scheduleWithFixedDelay(this::scan, every, every, TimeUnit.MILLISECONDS);
  }

  /** Loads the key material (failing with the key at fault) and starts watching its files. */
  public static ServerTls start(TlsSettings settings) {
    return new ServerTls(settings, KeyMaterial.load(settings));
  }

  /** The factory for Jetty's TLS connector. */
  public SslContextFactory.Server contextFactory() {
    return factory;
  }

  /** True when client certificates are asked for (and verified against the configured CA). */
  public boolean clientAuth() {
    return settings.clientCaFile() != null;
  }

  /** The certificate new connections are served. */
  public KeyMaterial current() {
    return current;
  }

  private static void apply(SslContextFactory factory, KeyMaterial material) {
    factory.setKeyStore(material.keyStore());
    factory.setKeyStorePassword(material.password());
    factory.setKeyManagerPassword(material.password());
  }

  /** One check of the files: unchanged, or a consistent new pair swapped in, or kept and logged. */
  void scan() {
    try {
      List<byte[]> files = KeyMaterial.currentSources(settings);
      if (current.loadedFrom(files)) {
        return;
      }
      KeyMaterial next = KeyMaterial.load(settings);
      factory.reload(f -> apply(f, next));
      current = next;
      lastProblem = null;
      LOG.info(
          "TLS certificate reloaded: subject {}, serial {}, valid until {}",
          next.certificate().getSubjectX500Principal(),
          next.certificate().getSerialNumber().toString(16),
          next.certificate().getNotAfter().toInstant());
    } catch (Exception e) {
      // A rotation caught half-way (new certificate, old key) is retried at the next scan; the
      // served certificate stays as it was. Logged once per distinct problem.
      String problem = e.getMessage();
      if (!Objects.equals(problem, lastProblem)) {
        LOG.warn("TLS certificate not reloaded (kept the current one): {}", problem);
        lastProblem = problem;
      }
    }
  }

  @Override
  public void close() {
    scanner.shutdownNow();
  }
}
