package dev.sluice.auth;

import static java.util.Objects.requireNonNull;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.security.SecureRandom;
import java.util.Base64;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import javax.crypto.Cipher;
import javax.crypto.Mac;
import javax.crypto.spec.GCMParameterSpec;
import javax.crypto.spec.SecretKeySpec;

/**
 * Opaque values the server hands out and must get back unchanged (page tokens): AES-GCM under a key
 * derived from a token signing key ({@link TokenService}), so every replica opens what any other
 * sealed, and retiring a signing key voids what it sealed. A value is bound to a context (which
 * listing, for whom) as GCM's associated data: opened under another context, or altered, it is
 * refused. Nothing of the value can be read without the key.
 *
 * <p>Layout, base64url without padding: {@code 1} (version), the key id's length and UTF-8 bytes, a
 * 12-byte nonce, the ciphertext with its 16-byte tag.
 */
public final class Sealer {
  private static final byte VERSION = 1;
  private static final int NONCE_BYTES = 12;
  private static final int TAG_BITS = 128;
  private static final byte[] DERIVATION =
      "sluice sealed values v1".getBytes(StandardCharsets.UTF_8);

  // Deriving the AES key and finding a Cipher cost a listing more than its database read (issue
  // 42): the derived keys are kept per key id (few: the signing keys in rotation), a Cipher per
  // thread (a Cipher is not thread-safe; every init takes a fresh nonce).
  private static final int MAX_DERIVED_KEYS = 64;
  private static final ThreadLocal<Cipher> CIPHERS =
      ThreadLocal.withInitial(
          () -> {
            try {
              return Cipher.getInstance("AES/GCM/NoPadding");
            } catch (GeneralSecurityException e) {
              throw new IllegalStateException("AES/GCM is not available", e);
            }
          });

  // Nonces from a generator per thread: the default one (NativePRNG) takes a process-wide lock and
  // reads /dev/urandom for every 12 bytes. Each is a DRBG seeded by the system.
  private static final ThreadLocal<SecureRandom> NONCES =
      ThreadLocal.withInitial(
          () -> {
            try {
              return SecureRandom.getInstance("DRBG");
            } catch (GeneralSecurityException e) {
              return new SecureRandom();
            }
          });

  private final TokenService keys;
  private final Map<String, SecretKeySpec> derivedKeys = new ConcurrentHashMap<>();

  public Sealer(TokenService keys) {
    this.keys = requireNonNull(keys, "keys");
  }

  /** {@code value} sealed for {@code context}. */
  public String seal(String context, String value) {
    requireNonNull(context, "context");
    requireNonNull(value, "value");
    TokenService.Key key = keys.activeKey();
    byte[] kid = key.kid().getBytes(StandardCharsets.UTF_8);
    byte[] nonce = new byte[NONCE_BYTES];
    NONCES.get().nextBytes(nonce);
    byte[] sealed =
        crypt(Cipher.ENCRYPT_MODE, aesKey(key.kid(), key.material()), nonce, context, utf8(value));
    ByteBuffer out = ByteBuffer.allocate(2 + kid.length + NONCE_BYTES + sealed.length);
    out.put(VERSION).put((byte) kid.length).put(kid).put(nonce).put(sealed);
    return Base64.getUrlEncoder().withoutPadding().encodeToString(out.array());
  }

  /**
   * The value {@link #seal} sealed for {@code context}; {@link IllegalArgumentException} for
   * anything else (altered, forged, sealed for another context, under a retired key).
   */
  public String open(String context, String sealed) {
    requireNonNull(context, "context");
    byte[] bytes;
    try {
      bytes = Base64.getUrlDecoder().decode(requireNonNull(sealed, "sealed"));
    } catch (IllegalArgumentException e) {
      throw refused();
    }
    ByteBuffer in = ByteBuffer.wrap(bytes);
    if (in.remaining() < 2 || in.get() != VERSION) {
      throw refused();
    }
    int kidLength = in.get() & 0xff;
    if (in.remaining() < kidLength + NONCE_BYTES + TAG_BITS / 8) {
      throw refused();
    }
    byte[] kid = new byte[kidLength];
    in.get(kid);
    byte[] nonce = new byte[NONCE_BYTES];
    in.get(nonce);
    byte[] body = new byte[in.remaining()];
    in.get(body);
    String kidText = new String(kid, StandardCharsets.UTF_8);
    byte[] material = keys.material(kidText);
    if (material == null) {
      throw refused();
    }
    try {
      return new String(
          crypt(Cipher.DECRYPT_MODE, aesKey(kidText, material), nonce, context, body),
          StandardCharsets.UTF_8);
    } catch (IllegalStateException e) {
      throw refused();
    }
  }

  private static IllegalArgumentException refused() {
    return new IllegalArgumentException("not a value sealed here");
  }

  /** The AES key derived from signing key {@code kid}: a key of its own, one key one algorithm. */
  private SecretKeySpec aesKey(String kid, byte[] material) {
    SecretKeySpec known = derivedKeys.get(kid);
    if (known != null) {
      return known;
    }
    if (derivedKeys.size() >= MAX_DERIVED_KEYS) {
      derivedKeys.clear(); // rotated keys never come back; the live ones are derived again
    }
    try {
      Mac mac = Mac.getInstance("HmacSHA256");
      mac.init(new SecretKeySpec(material, "HmacSHA256"));
      SecretKeySpec aes = new SecretKeySpec(mac.doFinal(DERIVATION), "AES");
      derivedKeys.put(kid, aes);
      return aes;
    } catch (GeneralSecurityException e) {
      throw new IllegalStateException("cannot derive the sealing key", e);
    }
  }

  private static byte[] crypt(
      int mode, SecretKeySpec aes, byte[] nonce, String context, byte[] in) {
    try {
      Cipher cipher = CIPHERS.get();
      cipher.init(mode, aes, new GCMParameterSpec(TAG_BITS, nonce));
      cipher.updateAAD(utf8(context));
      return cipher.doFinal(in);
    } catch (GeneralSecurityException e) {
      throw new IllegalStateException(
          "cannot " + (mode == Cipher.ENCRYPT_MODE ? "seal" : "open"), e);
    }
  }

  private static byte[] utf8(String s) {
    return s.getBytes(StandardCharsets.UTF_8);
  }
}
