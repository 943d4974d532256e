package dev.sluice.testing;

import static java.util.Objects.requireNonNull;

import java.io.IOException;
import java.io.InputStream;
import java.lang.reflect.Field;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.security.KeyStore;
import java.security.cert.Certificate;
import java.security.cert.CertificateFactory;
import java.security.cert.X509Certificate;
import java.util.Collections;
import javax.net.ssl.SSLContext;
import javax.net.ssl.TrustManager;
import javax.net.ssl.TrustManagerFactory;
import javax.net.ssl.X509TrustManager;

/**
 * TLS trust for Azurite's per-run certificate (scripts/azurite.sh makes a fresh CA each start).
 *
 * <p>How each client is made to trust it:
 *
 * <ul>
 *   <li>Azure SDK clients the tests build: {@code new JdkHttpClientBuilder(
 *       java.net.http.HttpClient.newBuilder().sslContext(ctx))} — azure-core-http-jdk-httpclient
 *       1.1.4 keeps the given JDK builder (and its SSLContext), adding only HTTP/1.1, timeouts,
 *       proxy and executor. See {@link AzuriteBed#httpClient()}.
 *   <li>Iceberg's {@code ADLSFileIO} (1.10) offers no TLS option: it builds its transport once, in
 *       a static field ({@code HTTP = HttpClient.createDefault()}), through {@code
 *       JdkHttpClientProvider} → {@code java.net.http.HttpClient.newBuilder().build()}, which takes
 *       {@code SSLContext.getDefault()} at build time. So {@link #installAsDefault()} must run
 *       before ADLSFileIO's class is initialised in the JVM; it checks that afterwards and fails
 *       otherwise.
 * </ul>
 */
final class AzuriteTls {
  private static final String ADLS_FILE_IO = "org.apache.iceberg.azure.adlsv2.ADLSFileIO";

  private final X509Certificate azuriteCa;
  private final SSLContext context;

  AzuriteTls(Path caPem) {
    requireNonNull(caPem, "caPem");
    this.azuriteCa = readPem(caPem);
    this.context = contextTrusting(azuriteCa);
  }

  /** The CA that signed Azurite's certificate (the one a client must trust). */
  X509Certificate azuriteCa() {
    return azuriteCa;
  }

  /** Trusts the JDK's default CAs and {@link #azuriteCa()}. */
  SSLContext context() {
    return context;
  }

  /**
   * {@code SSLContext.setDefault(context())}, then initialises ADLSFileIO (if on the class path)
   * and checks that its static JDK HTTP client uses this context.
   *
   * @throws IllegalStateException when ADLSFileIO's client was built before (by an earlier test in
   *     the same JVM): it would not trust Azurite
   */
  void installAsDefault() {
    SSLContext.setDefault(context);
    Object azureClient;
    try {
      Field http = Class.forName(ADLS_FILE_IO).getDeclaredField("HTTP");
      http.setAccessible(true);
      azureClient = http.get(null);
    } catch (ClassNotFoundException e) {
      return; // no Iceberg ADLS on the class path: nothing else to check
    } catch (ReflectiveOperationException e) {
      throw new IllegalStateException(
          "cannot read " + ADLS_FILE_IO + ".HTTP: update AzuriteTls for this Iceberg version", e);
    }
    java.net.http.HttpClient jdk = jdkClientOf(azureClient);
    if (jdk.sslContext() != context) {
      throw new IllegalStateException(
          ADLS_FILE_IO
              + " built its static HTTP client before AzuriteBed.installAsDefault() ran, with an"
              + " SSLContext that does not trust Azurite: call AzuriteBed.bed().installAsDefault()"
              + " in @BeforeAll before anything loads ADLSFileIO");
    }
  }

  private static java.net.http.HttpClient jdkClientOf(Object azureClient) {
    try {
      Field f = azureClient.getClass().getDeclaredField("jdkHttpClient");
      f.setAccessible(true);
      return (java.net.http.HttpClient) f.get(azureClient);
    } catch (ReflectiveOperationException | ClassCastException e) {
      throw new IllegalStateException(
          "ADLSFileIO's HTTP client is a "
              + azureClient.getClass().getName()
              + ", not azure-core-http-jdk-httpclient's JdkHttpClient: update AzuriteTls",
          e);
    }
  }

  /** Whether the PKCS#12 truststore opens with the password and holds {@link #azuriteCa()}. */
  boolean truststoreHoldsCa(Path truststore, char[] password) {
    try (InputStream in = Files.newInputStream(truststore)) {
      KeyStore ks = KeyStore.getInstance("PKCS12");
      ks.load(in, password);
      for (String alias : Collections.list(ks.aliases())) {
        if (ks.isCertificateEntry(alias) && azuriteCa.equals(ks.getCertificate(alias))) {
          return true;
        }
      }
      return false;
    } catch (IOException | GeneralSecurityException e) {
      throw new IllegalStateException("cannot read truststore " + truststore, e);
    }
  }

  private static X509Certificate readPem(Path pem) {
    try (InputStream in = Files.newInputStream(pem)) {
      return (X509Certificate) CertificateFactory.getInstance("X.509").generateCertificate(in);
    } catch (IOException | GeneralSecurityException e) {
      throw new IllegalStateException("cannot read Azurite certificate " + pem, e);
    }
  }

  /** One trust store: every CA the JDK trusts by default plus Azurite's. */
  private static SSLContext contextTrusting(X509Certificate extra) {
    try {
      TrustManagerFactory jdk =
          TrustManagerFactory.getInstance(TrustManagerFactory.getDefaultAlgorithm());
      jdk.init((KeyStore) null);
      KeyStore merged = KeyStore.getInstance("PKCS12");
      merged.load(null, null);
      int i = 0;
      for (TrustManager tm : jdk.getTrustManagers()) {
        if (tm instanceof X509TrustManager x509) {
          for (Certificate c : x509.getAcceptedIssuers()) {
            merged.setCertificateEntry("jdk-" + i++, c);
          }
        }
      }
      merged.setCertificateEntry("sluice-azurite-ca", extra);
      TrustManagerFactory tmf =
          TrustManagerFactory.getInstance(TrustManagerFactory.getDefaultAlgorithm());
      tmf.init(merged);
      SSLContext ctx = SSLContext.getInstance("TLS");
      ctx.init(null, tmf.getTrustManagers(), null);
      return ctx;
    } catch (IOException | GeneralSecurityException e) {
      throw new IllegalStateException("cannot build an SSLContext trusting Azurite", e);
    }
  }
}
