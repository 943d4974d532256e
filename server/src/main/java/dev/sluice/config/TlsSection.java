package dev.sluice.config;

import static dev.sluice.config.Bounds.between;
import static dev.sluice.config.Bounds.checked;
import static dev.sluice.config.Bounds.orDefault;

import dev.sluice.tls.KeyMaterial;
import dev.sluice.tls.TlsSettings;
import java.nio.file.Path;
import java.time.Duration;

/**
 * {@code server.tls}: a PEM certificate chain and its key, or a PKCS#12 keystore and its password;
 * optionally the CA that management clients' certificates must chain to. Its files are read when
 * the config is bound, so that a wrong path, password or pair shows at boot, naming the key.
 */
public record TlsSection(
    Path certificate,
    Path privateKey,
    Path keyStore,
    @Secret String keyStorePassword,
    Integer reloadIntervalSeconds,
    ClientAuth clientAuth) {

  public TlsSection {
    reloadIntervalSeconds = orDefault(reloadIntervalSeconds, 10);
    between("server.tls.reloadIntervalSeconds", reloadIntervalSeconds, 1, 3600);
    // The fields are assigned after this body: build from the parameters.
    TlsSettings settings =
        settingsOf(
            certificate, privateKey, keyStore, keyStorePassword, clientAuth, reloadIntervalSeconds);
    checked(
        () -> {
          KeyMaterial.load(settings);
          if (settings.clientCaFile() != null) {
            KeyMaterial.trustStore(settings.clientCaFile(), "server.tls.clientAuth.caFile");
          }
          return settings;
        });
  }

  /** {@code server.tls.clientAuth}: mTLS for the management API. */
  public record ClientAuth(Path caFile) {
    public ClientAuth {
      if (caFile == null) {
        throw new ConfigException(
            "server.tls.clientAuth.caFile is required with server.tls.clientAuth (the PEM CA"
                + " certificates that management clients' certificates must chain to)");
      }
    }
  }

  /** The settings the TLS layer serves from. */
  public TlsSettings settings() {
    return settingsOf(
        certificate, privateKey, keyStore, keyStorePassword, clientAuth, reloadIntervalSeconds);
  }

  private static TlsSettings settingsOf(
      Path certificate,
      Path privateKey,
      Path keyStore,
      String keyStorePassword,
      ClientAuth clientAuth,
      int reloadIntervalSeconds) {
    return checked(
        () ->
            new TlsSettings(
                certificate,
                privateKey,
                keyStore,
                keyStorePassword,
                clientAuth == null ? null : clientAuth.caFile(),
                Duration.ofSeconds(reloadIntervalSeconds)));
  }

  @Override
  public String toString() {
    return Redacted.toString(this);
  }
}
