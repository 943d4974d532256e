package dev.sluice.tls;

import java.nio.file.Path;
import java.security.GeneralSecurityException;
import javax.net.ssl.KeyManagerFactory;
import javax.net.ssl.SSLContext;
import javax.net.ssl.TrustManagerFactory;

/**
 * The admin CLI's side of TLS: trust the CA certificates of a PEM file instead of the JVM's trust
 * store ({@code --ca-file}), and present a client certificate for a management API behind mTLS
 * ({@code --client-cert}, {@code --client-key}). Hostnames are verified as always.
 */
public final class ClientTls {
  private ClientTls() {}

  /**
   * An SSLContext trusting {@code caFile}'s certificates (null: the JVM's defaults), presenting
   * {@code certificate} with {@code key} when both are given (PEM files). Errors name the options.
   */
  public static SSLContext context(Path caFile, Path certificate, Path key) {
    if ((certificate == null) != (key == null)) {
      throw new IllegalArgumentException("--client-cert and --client-key go together");
    }
    try {
      TrustManagerFactory trust = null;
      if (caFile != null) {
        trust = TrustManagerFactory.getInstance(TrustManagerFactory.getDefaultAlgorithm());
        trust.init(KeyMaterial.trustStore(caFile, "--ca-file"));
      }
      KeyManagerFactory keys = null;
      if (certificate != null) {
        KeyMaterial material =
            KeyMaterial.fromPem(
                KeyMaterial.read(certificate, "--client-cert"),
                KeyMaterial.read(key, "--client-key"),
                "--client-cert",
                "--client-key");
        keys = KeyManagerFactory.getInstance(KeyManagerFactory.getDefaultAlgorithm());
        keys.init(material.keyStore(), material.password().toCharArray());
      }
      SSLContext context = SSLContext.getInstance("TLS");
      context.init(
          keys == null ? null : keys.getKeyManagers(),
          trust == null ? null : trust.getTrustManagers(),
          null);
      return context;
    } catch (GeneralSecurityException e) {
      throw new IllegalArgumentException("cannot set up TLS: " + e.getMessage(), e);
    }
  }
}
