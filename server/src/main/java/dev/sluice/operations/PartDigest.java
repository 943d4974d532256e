package dev.sluice.operations;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.Map;
import java.util.TreeMap;

/**
 * A SHA-256 over a sequence of parts, each length-prefixed (null: the prefix -1) and maps counted
 * and sorted, so that no two different sequences digest the same bytes whatever order a map
 * iterates in. What makes an {@code ETag} ({@link LoadTableETag}) and a request's fingerprint under
 * an {@code Idempotency-Key} ({@link RequestFingerprint}).
 */
public final class PartDigest {
  /**
   * Never updated, only cloned: {@code MessageDigest.getInstance} looks the provider up on every
   * call, which was 6 % of a table load's CPU (JFR); a clone copies the initial state.
   */
  private static final MessageDigest PROTOTYPE = newSha256();

  private final MessageDigest digest;

  public PartDigest() {
    this.digest = fromPrototype();
  }

  private static MessageDigest fromPrototype() {
    try {
      return (MessageDigest) PROTOTYPE.clone();
    } catch (CloneNotSupportedException e) {
      return newSha256(); // a provider whose SHA-256 cannot be cloned
    }
  }

  private static MessageDigest newSha256() {
    try {
      return MessageDigest.getInstance("SHA-256");
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException("SHA-256 is required of every Java platform", e);
    }
  }

  public PartDigest add(String part) {
    if (part == null) {
      digest.update(new byte[] {-1, -1, -1, -1});
      return this;
    }
    byte[] bytes = part.getBytes(StandardCharsets.UTF_8);
    int n = bytes.length;
    digest.update(new byte[] {(byte) (n >>> 24), (byte) (n >>> 16), (byte) (n >>> 8), (byte) n});
    digest.update(bytes);
    return this;
  }

  public PartDigest add(Map<String, String> map) {
    Map<String, String> sorted = new TreeMap<>(map);
    add(Integer.toString(sorted.size()));
    sorted.forEach(
        (key, value) -> {
          add(key);
          add(value);
        });
    return this;
  }

  /** Bytes as they are, unprefixed: only as the last part. */
  public PartDigest last(byte[] bytes) {
    digest.update(bytes);
    return this;
  }

  public byte[] finish() {
    return digest.digest();
  }
}
