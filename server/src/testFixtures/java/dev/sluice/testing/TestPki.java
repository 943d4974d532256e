package dev.sluice.testing;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.math.BigInteger;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.security.GeneralSecurityException;
import java.security.KeyStore;
import java.security.PrivateKey;
import java.security.cert.Certificate;
import java.security.cert.CertificateFactory;
import java.security.cert.X509Certificate;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.concurrent.TimeUnit;
import javax.net.ssl.KeyManagerFactory;
import javax.net.ssl.SSLContext;
import javax.net.ssl.TrustManagerFactory;

/**
 * A certificate authority made at test time with the JDK's {@code keytool} (EC P-256 keys), and
 * certificates it issues: server certificates for {@code localhost} / {@code 127.0.0.1} and client
 * certificates, as PEM files (certificate chain, PKCS#8 key) and PKCS#12 keystores.
 */
public final class TestPki {
  public static final String PASSWORD = "test-pki-password";
  private static final String KEYTOOL =
      Path.of(System.getProperty("java.home"), "bin", "keytool").toString();

  private final Path dir;
  private final String name;
  private final Path caStore;
  private final X509Certificate ca;
  private int issued;

  private TestPki(Path dir, String name, Path caStore, X509Certificate ca) {
    this.dir = dir;
    this.name = name;
    this.caStore = caStore;
    this.ca = ca;
  }

  /** A fresh CA in {@code dir}, its subject {@code CN=<name>}. */
  public static TestPki create(Path dir, String name) throws Exception {
    Files.createDirectories(dir);
    Path store = dir.resolve(name + "-ca.p12");
    keytool(
        "-genkeypair",
        "-alias",
        "ca",
        "-keyalg",
        "EC",
        "-groupname",
        "secp256r1",
        "-dname",
        "CN=" + name,
        "-ext",
        "bc:c",
        "-validity",
        "3",
        "-keystore",
        store.toString(),
        "-storetype",
        "PKCS12",
        "-storepass",
        PASSWORD);
    X509Certificate ca = (X509Certificate) load(store, PASSWORD).getCertificate("ca");
    Path caPem = dir.resolve(name + "-ca.pem");
    Files.writeString(caPem, pem("CERTIFICATE", ca.getEncoded()));
    return new TestPki(dir, name, store, ca);
  }

  /** A certificate and key this CA issued. */
  public record Issued(
      Path certificatePem, Path privateKeyPem, Path pkcs12, X509Certificate certificate) {
    public BigInteger serial() {
      return certificate.getSerialNumber();
    }

    /** The {@code server.tls} YAML that serves this certificate from its PEM files. */
    public String serverTlsYaml() {
      return "server:\n  tls:\n    certificate: \""
          + certificatePem
          + "\"\n    privateKey: \""
          + privateKeyPem
          + "\"\n";
    }

    /** As {@link #serverTlsYaml()}, with client certificates of {@code clientCa} asked for. */
    public String serverTlsYaml(Path clientCa) {
      return serverTlsYaml() + "    clientAuth:\n      caFile: \"" + clientCa + "\"\n";
    }
  }

  public X509Certificate ca() {
    return ca;
  }

  public Path caPem() {
    return dir.resolve(name + "-ca.pem");
  }

  /** A server certificate for localhost and 127.0.0.1. */
  public Issued server(String cn) throws Exception {
    return issue(cn, "san=dns:localhost,ip:127.0.0.1", "eku=serverAuth");
  }

  /** A client certificate (for mTLS). */
  public Issued client(String cn) throws Exception {
    return issue(cn, null, "eku=clientAuth");
  }

  private synchronized Issued issue(String cn, String san, String eku) throws Exception {
    String base = name + "-" + cn + "-" + (++issued);
    Path store = dir.resolve(base + ".keys.p12");
    Path csr = dir.resolve(base + ".csr");
    Path crt = dir.resolve(base + ".crt");
    keytool(
        "-genkeypair",
        "-alias",
        "key",
        "-keyalg",
        "EC",
        "-groupname",
        "secp256r1",
        "-dname",
        "CN=" + cn,
        "-validity",
        "3",
        "-keystore",
        store.toString(),
        "-storetype",
        "PKCS12",
        "-storepass",
        PASSWORD);
    keytool(
        "-certreq",
        "-alias",
        "key",
        "-file",
        csr.toString(),
        "-keystore",
        store.toString(),
        "-storepass",
        PASSWORD);
    List<String> gencert =
        new ArrayList<>(
            List.of(
                "-gencert",
                "-alias",
                "ca",
                "-infile",
                csr.toString(),
                "-outfile",
                crt.toString(),
                "-rfc",
                "-validity",
                "2",
                "-keystore",
                caStore.toString(),
                "-storepass",
                PASSWORD,
                "-ext",
                eku));
    if (san != null) {
      gencert.add("-ext");
      gencert.add(san);
    }
    keytool(gencert.toArray(new String[0]));
    X509Certificate leaf;
    try (InputStream in = Files.newInputStream(crt)) {
      leaf = (X509Certificate) CertificateFactory.getInstance("X.509").generateCertificate(in);
    }
    PrivateKey key = (PrivateKey) load(store, PASSWORD).getKey("key", PASSWORD.toCharArray());
    Path certPem = dir.resolve(base + ".cert.pem");
    Path keyPem = dir.resolve(base + ".key.pem");
    Files.writeString(
        certPem, pem("CERTIFICATE", leaf.getEncoded()) + pem("CERTIFICATE", ca.getEncoded()));
    Files.writeString(keyPem, pem("PRIVATE KEY", key.getEncoded()));
    KeyStore p12 = KeyStore.getInstance("PKCS12");
    p12.load(null, null);
    p12.setKeyEntry("sluice", key, PASSWORD.toCharArray(), new Certificate[] {leaf, ca});
    Path p12File = dir.resolve(base + ".p12");
    try (var out = Files.newOutputStream(p12File)) {
      p12.store(out, PASSWORD.toCharArray());
    }
    return new Issued(certPem, keyPem, p12File, leaf);
  }

  /** Trusts only this CA. */
  public SSLContext clientContext() throws GeneralSecurityException, IOException {
    return clientContext(null);
  }

  /** Trusts only this CA and, when {@code client} is not null, presents its certificate. */
  public SSLContext clientContext(Issued client) throws GeneralSecurityException, IOException {
    TrustManagerFactory trust =
        TrustManagerFactory.getInstance(TrustManagerFactory.getDefaultAlgorithm());
    trust.init(trustStore());
    KeyManagerFactory keys = null;
    if (client != null) {
      keys = KeyManagerFactory.getInstance(KeyManagerFactory.getDefaultAlgorithm());
      keys.init(load(client.pkcs12(), PASSWORD), PASSWORD.toCharArray());
    }
    SSLContext context = SSLContext.getInstance("TLS");
    context.init(keys == null ? null : keys.getKeyManagers(), trust.getTrustManagers(), null);
    return context;
  }

  public KeyStore trustStore() throws GeneralSecurityException, IOException {
    KeyStore store = KeyStore.getInstance("PKCS12");
    store.load(null, null);
    store.setCertificateEntry("ca", ca);
    return store;
  }

  /** The trust store as a PKCS#12 file (password {@link #PASSWORD}). */
  public Path trustStoreFile() throws GeneralSecurityException, IOException {
    Path file = dir.resolve(name + "-truststore.p12");
    try (var out = Files.newOutputStream(file)) {
      trustStore().store(out, PASSWORD.toCharArray());
    }
    return file;
  }

  /**
   * Replaces {@code target}'s content with {@code source}'s in one atomic rename, as a certificate
   * manager (cert-manager, certbot's deploy hook) does.
   */
  public static void replaceAtomically(Path source, Path target) throws IOException {
    Path temp = target.resolveSibling(target.getFileName() + ".tmp");
    Files.copy(source, temp, StandardCopyOption.REPLACE_EXISTING);
    Files.move(temp, target, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
  }

  static String pem(String type, byte[] der) {
    return "-----BEGIN "
        + type
        + "-----\n"
        + Base64.getMimeEncoder(64, "\n".getBytes(StandardCharsets.US_ASCII)).encodeToString(der)
        + "\n-----END "
        + type
        + "-----\n";
  }

  private static KeyStore load(Path file, String password)
      throws GeneralSecurityException, IOException {
    KeyStore store = KeyStore.getInstance("PKCS12");
    store.load(new ByteArrayInputStream(Files.readAllBytes(file)), password.toCharArray());
    return store;
  }

  private static void keytool(String... args) throws Exception {
    List<String> command = new ArrayList<>();
    command.add(KEYTOOL);
    command.addAll(List.of(args));
    Process process = new ProcessBuilder(command).redirectErrorStream(true).start();
    String output = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    if (!process.waitFor(60, TimeUnit.SECONDS) || process.exitValue() != 0) {
      throw new IllegalStateException("keytool " + String.join(" ", args) + " failed: " + output);
    }
  }
}
