package dev.sluice.testing.gcp;

import static java.nio.charset.StandardCharsets.UTF_8;
import static java.util.Objects.requireNonNull;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.KeyPair;
import java.security.KeyPairGenerator;
import java.security.NoSuchAlgorithmException;
import java.security.interfaces.RSAPublicKey;
import java.util.Base64;
import java.util.HexFormat;
import java.util.Set;
import java.util.concurrent.ThreadLocalRandom;

/**
 * A service account of the {@link GoogleCloudFake}: an RSA-2048 key pair whose private half is
 * handed out as a real service-account key JSON (what {@code ServiceAccountCredentials.fromStream}
 * reads), and its own IAM: {@code roles/storage.objectAdmin} on {@link #buckets()} and nothing
 * else.
 */
public final class ServiceAccount {
  private static final ObjectMapper JSON = new ObjectMapper();

  private final String email;
  private final String projectId;
  private final String clientId;
  private final String privateKeyId;
  private final KeyPair keyPair;
  private final Set<String> buckets;
  private final String tokenUri;

  ServiceAccount(String email, String projectId, Set<String> buckets, String tokenUri) {
    this.email = requireNonNull(email, "email");
    this.projectId = requireNonNull(projectId, "projectId");
    this.buckets = Set.copyOf(requireNonNull(buckets, "buckets"));
    this.tokenUri = requireNonNull(tokenUri, "tokenUri");
    ThreadLocalRandom random = ThreadLocalRandom.current();
    this.clientId = Long.toUnsignedString(random.nextLong() & Long.MAX_VALUE);
    byte[] kid = new byte[20];
    random.nextBytes(kid);
    this.privateKeyId = HexFormat.of().formatHex(kid);
    try {
      KeyPairGenerator generator = KeyPairGenerator.getInstance("RSA");
      generator.initialize(2048);
      this.keyPair = generator.generateKeyPair();
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException(e);
    }
  }

  public String email() {
    return email;
  }

  public String projectId() {
    return projectId;
  }

  public String privateKeyId() {
    return privateKeyId;
  }

  /** The buckets on which this account holds roles/storage.objectAdmin (its whole IAM). */
  public Set<String> buckets() {
    return buckets;
  }

  RSAPublicKey publicKey() {
    return (RSAPublicKey) keyPair.getPublic();
  }

  /** The key as Google issues it: {@code type service_account}, PKCS#8 PEM, token_uri the fake. */
  public String keyJson() {
    ObjectNode key = JSON.createObjectNode();
    key.put("type", "service_account");
    key.put("project_id", projectId);
    key.put("private_key_id", privateKeyId);
    key.put("private_key", pem(keyPair.getPrivate().getEncoded()));
    key.put("client_email", email);
    key.put("client_id", clientId);
    key.put("auth_uri", "https://accounts.google.com/o/oauth2/auth");
    key.put("token_uri", tokenUri);
    key.put("auth_provider_x509_cert_url", "https://www.googleapis.com/oauth2/v1/certs");
    key.put("universe_domain", "googleapis.com");
    try {
      return JSON.writerWithDefaultPrettyPrinter().writeValueAsString(key);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** Writes {@link #keyJson()} to {@code file} and returns it. */
  public Path writeKeyFile(Path file) throws IOException {
    return Files.writeString(requireNonNull(file, "file"), keyJson(), UTF_8);
  }

  private static String pem(byte[] pkcs8) {
    String body = Base64.getMimeEncoder(64, "\n".getBytes(UTF_8)).encodeToString(pkcs8);
    return "-----BEGIN PRIVATE KEY-----\n" + body + "\n-----END PRIVATE KEY-----\n";
  }

  @Override
  public String toString() {
    return email;
  }
}
