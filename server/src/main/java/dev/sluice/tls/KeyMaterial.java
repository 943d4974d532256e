package dev.sluice.tls;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.security.Key;
import java.security.KeyStore;
import java.security.PrivateKey;
import java.security.PublicKey;
import java.security.SecureRandom;
import java.security.Signature;
import java.security.cert.Certificate;
import java.security.cert.X509Certificate;
import java.util.Arrays;
import java.util.Base64;
import java.util.Enumeration;
import java.util.List;
import java.util.Objects;

/**
 * The server's certificate chain and private key, loaded from {@link TlsSettings} into an in-memory
 * PKCS#12 {@link KeyStore} that Jetty serves. A key that does not belong to the certificate is
 * refused, which also catches a rotation caught half-way (new certificate, old key).
 */
public final class KeyMaterial {
  private final KeyStore keyStore;
  private final String password;
  private final X509Certificate leaf;
  private final List<byte[]> sources;

  private KeyMaterial(
      KeyStore keyStore, String password, X509Certificate leaf, List<byte[]> sources) {
    this.keyStore = Objects.requireNonNull(keyStore, "keyStore");
    this.password = Objects.requireNonNull(password, "password");
    this.leaf = Objects.requireNonNull(leaf, "leaf");
    this.sources = sources;
  }

  /** Loads the configured files; the message names the {@code server.tls} key at fault. */
  public static KeyMaterial load(TlsSettings settings) {
    return settings.isPem()
        ? fromPem(
            read(settings.certificate(), "server.tls.certificate"),
            read(settings.privateKey(), "server.tls.privateKey"))
        : fromPkcs12(read(settings.keyStore(), "server.tls.keyStore"), settings.keyStorePassword());
  }

  /** The files' bytes now, to tell whether they changed since this material was loaded. */
  static List<byte[]> currentSources(TlsSettings settings) {
    return settings.isPem()
        ? List.of(
            read(settings.certificate(), "server.tls.certificate"),
            read(settings.privateKey(), "server.tls.privateKey"))
        : List.of(read(settings.keyStore(), "server.tls.keyStore"));
  }

  boolean loadedFrom(List<byte[]> current) {
    if (current.size() != sources.size()) {
      return false;
    }
    for (int i = 0; i < current.size(); i++) {
      if (!Arrays.equals(current.get(i), sources.get(i))) {
        return false;
      }
    }
    return true;
  }

  static KeyMaterial fromPem(byte[] certificatePem, byte[] keyPem) {
    return fromPem(certificatePem, keyPem, "server.tls.certificate", "server.tls.privateKey");
  }

  /** As above; {@code certificateName} and {@code keyName} are what error messages call them. */
  static KeyMaterial fromPem(
      byte[] certificatePem, byte[] keyPem, String certificateName, String keyName) {
    List<X509Certificate> chain = Pem.certificates(certificatePem, certificateName);
    PrivateKey key = Pem.privateKey(keyPem, keyName);
    requireMatch(key, chain.get(0), keyName + " does not belong to " + certificateName);
    String password = randomPassword();
    try {
      KeyStore store = KeyStore.getInstance("PKCS12");
      store.load(null, null);
      store.setKeyEntry("sluice", key, password.toCharArray(), chain.toArray(new Certificate[0]));
      return new KeyMaterial(store, password, chain.get(0), List.of(certificatePem, keyPem));
    } catch (GeneralSecurityException | IOException e) {
      throw new IllegalArgumentException(
          certificateName + " and " + keyName + " cannot be used together: " + e, e);
    }
  }

  static KeyMaterial fromPkcs12(byte[] pkcs12, String password) {
    try {
      KeyStore store = KeyStore.getInstance("PKCS12");
      store.load(new ByteArrayInputStream(pkcs12), password.toCharArray());
      Enumeration<String> aliases = store.aliases();
      while (aliases.hasMoreElements()) {
        String alias = aliases.nextElement();
        if (store.isKeyEntry(alias)) {
          Key key = store.getKey(alias, password.toCharArray());
          X509Certificate leaf = (X509Certificate) store.getCertificate(alias);
          if (key instanceof PrivateKey privateKey && leaf != null) {
            requireMatch(
                privateKey,
                leaf,
                "server.tls.keyStore: the key of entry "
                    + alias
                    + " does not"
                    + " belong to its certificate");
            return new KeyMaterial(store, password, leaf, List.of(pkcs12));
          }
        }
      }
      throw new IllegalArgumentException(
          "server.tls.keyStore holds no private key entry with a certificate");
    } catch (IOException e) {
      throw new IllegalArgumentException(
          "server.tls.keyStore cannot be opened (wrong server.tls.keyStorePassword, or not"
              + " PKCS#12): "
              + e.getMessage(),
          e);
    } catch (GeneralSecurityException e) {
      throw new IllegalArgumentException("server.tls.keyStore cannot be read: " + e, e);
    }
  }

  /**
   * The CA certificates of a PEM file as a trust store (client certificates must chain to them).
   */
  public static KeyStore trustStore(Path caFile, String key) {
    List<X509Certificate> cas = Pem.certificates(read(caFile, key), key);
    try {
      KeyStore store = KeyStore.getInstance("PKCS12");
      store.load(null, null);
      for (int i = 0; i < cas.size(); i++) {
        store.setCertificateEntry("ca-" + i, cas.get(i));
      }
      return store;
    } catch (GeneralSecurityException | IOException e) {
      throw new IllegalArgumentException(key + " cannot be used as a trust store: " + e, e);
    }
  }

  /** Signs a random challenge with the key and verifies it with the certificate's public key. */
  private static void requireMatch(PrivateKey key, X509Certificate certificate, String message) {
    PublicKey publicKey = certificate.getPublicKey();
    String algorithm =
        switch (key.getAlgorithm()) {
          case "RSA" -> "SHA256withRSA";
          case "EC" -> "SHA256withECDSA";
          default -> key.getAlgorithm(); // Ed25519, Ed448
        };
    byte[] challenge = "sluice key check".getBytes(StandardCharsets.US_ASCII);
    try {
      Signature signer = Signature.getInstance(algorithm);
      signer.initSign(key);
      signer.update(challenge);
      byte[] signature = signer.sign();
      Signature verifier = Signature.getInstance(algorithm);
      verifier.initVerify(publicKey);
      verifier.update(challenge);
      if (!verifier.verify(signature)) {
        throw new IllegalArgumentException(message);
      }
    } catch (GeneralSecurityException e) {
      throw new IllegalArgumentException(message + " (" + e.getMessage() + ")", e);
    }
  }

  private static String randomPassword() {
    byte[] bytes = new byte[18];
    new SecureRandom().nextBytes(bytes);
    return Base64.getEncoder().encodeToString(bytes);
  }

  static byte[] read(Path file, String key) {
    try {
      return Files.readAllBytes(file);
    } catch (IOException e) {
      throw new IllegalArgumentException(key + ": cannot read " + file + ": " + e, e);
    }
  }

  public KeyStore keyStore() {
    return keyStore;
  }

  /** The in-memory key store's password (random for PEM material); never logged. */
  public String password() {
    return password;
  }

  public X509Certificate certificate() {
    return leaf;
  }
}
