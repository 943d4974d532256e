package dev.sluice.testing.gcp;

/** An HTTP {@code Range: bytes=...} header (one range) resolved against an object's size. */
final class ByteRange {
  private ByteRange() {}

  /**
   * {@code [first, last]} (inclusive) for {@code header} on {@code size} bytes, or null when it
   * cannot be satisfied (416). A header the fake cannot read is a 400.
   */
  static long[] parse(String header, long size) {
    String value = header.trim();
    if (!value.startsWith("bytes=") || value.contains(",")) {
      throw GcsError.badRequest("Unsupported Range header: " + header);
    }
    String spec = value.substring("bytes=".length()).trim();
    int dash = spec.indexOf('-');
    if (dash < 0) {
      throw GcsError.badRequest("Invalid Range header: " + header);
    }
    try {
      String from = spec.substring(0, dash).trim();
      String to = spec.substring(dash + 1).trim();
      if (from.isEmpty()) {
        long suffix = Long.parseLong(to);
        return suffix == 0 ? null : new long[] {Math.max(0, size - suffix), size - 1};
      }
      long first = Long.parseLong(from);
      long last = to.isEmpty() ? size - 1 : Math.min(Long.parseLong(to), size - 1);
      if (first >= size || last < first) {
        return null;
      }
      return new long[] {first, last};
    } catch (NumberFormatException e) {
      throw GcsError.badRequest("Invalid Range header: " + header);
    }
  }
}
