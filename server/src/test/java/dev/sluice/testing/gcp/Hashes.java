package dev.sluice.testing.gcp;

/**
 * Upload integrity as GCS enforces it: a CRC32C or MD5 the client states (in the object metadata or
 * an {@code x-goog-hash} header) must match the bytes received, or the upload fails with a 400.
 */
final class Hashes {
  private Hashes() {}

  static void check(byte[] data, String crc32c, String md5) {
    if (crc32c != null) {
      String actual = ObjectStore.crc32c(data);
      if (!crc32c.equals(actual)) {
        throw GcsError.badRequest(
            "Provided CRC32C \""
                + crc32c
                + "\" doesn't match calculated CRC32C \""
                + actual
                + "\".");
      }
    }
    if (md5 != null) {
      String actual = ObjectStore.md5(data);
      if (!md5.equals(actual)) {
        throw GcsError.badRequest(
            "Provided MD5 hash \""
                + md5
                + "\" doesn't match calculated MD5 hash \""
                + actual
                + "\".");
      }
    }
  }

  /** Checks an {@code x-goog-hash: crc32c=...,md5=...} header (absent: nothing to check). */
  static void checkHeader(byte[] data, String header) {
    if (header != null) {
      check(data, value(header, "crc32c"), value(header, "md5"));
    }
  }

  private static String value(String header, String algorithm) {
    for (String item : header.split(",")) {
      String trimmed = item.trim();
      if (trimmed.startsWith(algorithm + "=")) {
        return trimmed.substring(algorithm.length() + 1);
      }
    }
    return null;
  }
}
