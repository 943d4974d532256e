package dev.sluice.auth;

import java.security.GeneralSecurityException;
import java.security.MessageDigest;
import java.security.SecureRandom;
import java.util.Base64;
import javax.crypto.SecretKeyFactory;
import javax.crypto.spec.PBEKeySpec;

/**
 * Slow, salted hashing of principal secrets (PBKDF2-HMAC-SHA256). The stored form names its
 * parameters, {@code pbkdf2-sha256$<iterations>$<salt>$<hash>}, so they can be raised later.
 */
public final class SecretHasher {
  private static final String ALGORITHM = "PBKDF2WithHmacSHA256";
  private static final int ITERATIONS = 100_000;
  private static final SecureRandom RANDOM = new SecureRandom();
  // A stored form with the same parameters as real ones, so checking a secret against it costs
  // what checking a real one costs (see verifyOrDummy, which answers false whatever it derives).
  // Its salt and hash are arbitrary: deriving one at class initialisation cost a start-up a second
  // full hash.
  private static final String DUMMY =
      "pbkdf2-sha256$" + ITERATIONS + "$" + b64(new byte[16]) + "$" + b64(new byte[32]);

  private SecretHasher() {}

  public static String hash(String secret) {
    byte[] salt = new byte[16];
    RANDOM.nextBytes(salt);
    return "pbkdf2-sha256$"
        + ITERATIONS
        + "$"
        + b64(salt)
        + "$"
        + b64(derive(secret, salt, ITERATIONS));
  }

  public static boolean verify(String secret, String stored) {
    String[] parts = stored.split("\\$");
    if (parts.length != 4 || !parts[0].equals("pbkdf2-sha256")) {
      return false;
    }
    int iterations = Integer.parseInt(parts[1]);
    byte[] salt = Base64.getDecoder().decode(parts[2]);
    byte[] expected = Base64.getDecoder().decode(parts[3]);
    return MessageDigest.isEqual(expected, derive(secret, salt, iterations));
  }

  /**
   * {@link #verify} against {@code stored}, or, when there is none (no such client), the same work
   * against a dummy hash and false: the answer's timing does not tell whether a client id exists.
   */
  public static boolean verifyOrDummy(String secret, String stored) {
    if (stored == null) {
      verify(secret, DUMMY);
      return false;
    }
    return verify(secret, stored);
  }

  /** A new random secret or identifier: {@code bytes} of entropy, hex-encoded. */
  public static String randomToken(int bytes) {
    byte[] buf = new byte[bytes];
    RANDOM.nextBytes(buf);
    StringBuilder sb = new StringBuilder(bytes * 2);
    for (byte b : buf) {
      sb.append(Character.forDigit((b >> 4) & 0xf, 16)).append(Character.forDigit(b & 0xf, 16));
    }
    return sb.toString();
  }

  private static byte[] derive(String secret, byte[] salt, int iterations) {
    try {
      PBEKeySpec spec = new PBEKeySpec(secret.toCharArray(), salt, iterations, 256);
      return SecretKeyFactory.getInstance(ALGORITHM).generateSecret(spec).getEncoded();
    } catch (GeneralSecurityException e) {
      throw new IllegalStateException("PBKDF2 is unavailable", e);
    }
  }

  private static String b64(byte[] bytes) {
    return Base64.getEncoder().encodeToString(bytes);
  }
}
