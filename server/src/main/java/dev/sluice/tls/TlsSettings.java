package dev.sluice.tls;

import java.nio.file.Path;
import java.time.Duration;
import java.util.Objects;

/**
 * The server's TLS material as configured ({@code server.tls}): a PEM certificate chain and its
 * private key, or a PKCS#12 keystore and its password; optionally the CA certificates that client
 * certificates for the management API must chain to (mTLS). The files are re-read every {@code
 * reloadInterval}; a changed, consistent pair replaces the served certificate.
 */
public record TlsSettings(
    Path certificate,
    Path privateKey,
    Path keyStore,
    String keyStorePassword,
    Path clientCaFile,
    Duration reloadInterval) {

  public TlsSettings {
    Objects.requireNonNull(reloadInterval, "reloadInterval");
    boolean pem = certificate != null || privateKey != null;
    boolean pkcs12 = keyStore != null || keyStorePassword != null;
    if (pem == pkcs12) {
      throw new IllegalArgumentException(
          "server.tls needs either certificate + privateKey (PEM files) or keyStore +"
              + " keyStorePassword (PKCS#12), not "
              + (pem ? "both" : "neither"));
    }
    if (pem && (certificate == null || privateKey == null)) {
      throw new IllegalArgumentException(
          "server.tls."
              + (certificate == null ? "certificate" : "privateKey")
              + " is required with server.tls."
              + (certificate == null ? "privateKey" : "certificate"));
    }
    if (pkcs12 && (keyStore == null || keyStorePassword == null)) {
      throw new IllegalArgumentException(
          "server.tls."
              + (keyStore == null ? "keyStore" : "keyStorePassword")
              + " is required with server.tls."
              + (keyStore == null ? "keyStorePassword" : "keyStore"));
    }
  }

  /** True when the key material comes from PEM files. */
  public boolean isPem() {
    return certificate != null;
  }

  @Override
  public String toString() {
    // Never the password.
    return isPem()
        ? "TlsSettings[certificate=" + certificate + ", privateKey=" + privateKey + "]"
        : "TlsSettings[keyStore=" + keyStore + "]";
  }
}
