package dev.sluice.testing;

import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.KeyStore;
import java.security.cert.CertificateFactory;
import java.util.Map;
import javax.net.ssl.SSLContext;
import javax.net.ssl.TrustManagerFactory;
import org.apache.iceberg.rest.auth.TLSConfigurer;

/**
 * Iceberg's REST client trusting one CA: catalog properties {@code
 * rest.client.tls.configurer-impl=dev.sluice.testing.CaFileTlsConfigurer} and {@code
 * sluice.test.ca-file=<PEM>}. (The JVM-wide {@code javax.net.ssl.trustStore} would do as well, but
 * the default SSLContext is fixed at its first use in a test JVM shared by many tests.)
 */
public final class CaFileTlsConfigurer implements TLSConfigurer {
  public static final String CA_FILE = "sluice.test.ca-file";
  private SSLContext context;

  @Override
  public void initialize(Map<String, String> properties) {
    try (InputStream in = Files.newInputStream(Path.of(properties.get(CA_FILE)))) {
      KeyStore trust = KeyStore.getInstance("PKCS12");
      trust.load(null, null);
      trust.setCertificateEntry(
          "ca", CertificateFactory.getInstance("X.509").generateCertificate(in));
      TrustManagerFactory factory =
          TrustManagerFactory.getInstance(TrustManagerFactory.getDefaultAlgorithm());
      factory.init(trust);
      context = SSLContext.getInstance("TLS");
      context.init(null, factory.getTrustManagers(), null);
    } catch (Exception e) {
      throw new IllegalStateException("cannot trust " + properties.get(CA_FILE), e);
    }
  }

  @Override
  public SSLContext sslContext() {
    return context;
  }
}
