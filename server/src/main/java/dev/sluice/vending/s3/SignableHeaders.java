package dev.sluice.vending.s3;

import java.net.URI;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

/**
 * Which headers of an S3 request Sluice signs: an allowlist of what Iceberg's {@code
 * S3V4RestSignerClient} forwards from the AWS SDK v2's requests (and what Hadoop S3A and Trino's
 * native S3 client send through the same SDK), checked on the name as S3 implementations read it.
 *
 * <p>Ceph RGW reads header names CGI-style, so {@code X_AMZ_ACL}, {@code x-amz_acl} and {@code
 * x-amz-acl} are one header to it: a name is canonicalised (surrounding whitespace trimmed, lower
 * case, {@code _} read as {@code -}) before it is looked up, two names with one canonical form are
 * refused, and a name with {@code _} is refused outright (no S3 client sends one). Any {@code
 * x-amz-*} header not listed is refused, and so is every other unlisted header: nothing that could
 * read or name another object ({@code x-amz-copy-source*}), carry a credential, open the object to
 * others ({@code x-amz-grant-*}, a canned ACL other than owner-only) or lock it reaches a
 * signature.
 *
 * <p>This is the first line only. A client may add headers after signing, which SigV4 cannot
 * forbid; what bounds those is the store's enforcement of the scoped identity the request is signed
 * with ({@link dev.sluice.vending.RequestSigner#scopedIdentity()}).
 */
final class SignableHeaders {
  static final int MAX_HEADERS = 64;
  static final int MAX_HEADER_BYTES = 8192;

  /** Canonical names signed as they are sent. */
  private static final Set<String> ALLOWED =
      Set.of(
          // HTTP, as the SDK and its HTTP clients send them
          "host",
          "content-length",
          "content-type",
          "content-md5",
          "content-encoding",
          "content-language",
          "content-disposition",
          "cache-control",
          "expires",
          "expect",
          "range",
          "user-agent",
          "accept",
          "accept-encoding",
          "if-match",
          "if-none-match",
          "if-modified-since",
          "if-unmodified-since",
          // tracing the SDK or an agent may add
          "traceparent",
          "tracestate",
          "x-amzn-trace-id",
          // SigV4 and the SDK's own
          "x-amz-content-sha256",
          "x-amz-date",
          "x-amz-user-agent",
          "x-amz-decoded-content-length",
          "x-amz-trailer",
          // checksums (SDK 2.30+ flexible checksums, GET with checksum validation)
          "x-amz-checksum-mode",
          "x-amz-sdk-checksum-algorithm",
          "x-amz-checksum-algorithm",
          "x-amz-checksum-type",
          "x-amz-checksum-crc32",
          "x-amz-checksum-crc32c",
          "x-amz-checksum-crc64nvme",
          "x-amz-checksum-sha1",
          "x-amz-checksum-sha256",
          "x-amz-mp-object-size",
          // Iceberg's S3FileIO options: s3.acl (owner-only values, below), s3.sse.*,
          // s3.write.storage-class, s3.requester-pays.enabled
          "x-amz-acl",
          "x-amz-storage-class",
          "x-amz-server-side-encryption",
          "x-amz-server-side-encryption-aws-kms-key-id",
          "x-amz-server-side-encryption-context",
          "x-amz-server-side-encryption-bucket-key-enabled",
          "x-amz-server-side-encryption-customer-algorithm",
          "x-amz-server-side-encryption-customer-key",
          "x-amz-server-side-encryption-customer-key-md5",
          "x-amz-request-payer",
          "x-amz-expected-bucket-owner");

  /** Canonical name prefixes signed as sent: the SDK's retry headers, user metadata. */
  private static final List<String> ALLOWED_PREFIXES = List.of("amz-sdk-", "x-amz-meta-");

  /**
   * Canned ACLs that open nothing beyond the bucket's owner (Iceberg's {@code s3.acl} may send
   * them); any other would let a table's writer publish its objects past Sluice's grants.
   */
  private static final Set<String> OWNER_ONLY_ACLS =
      Set.of("private", "bucket-owner-read", "bucket-owner-full-control");

  private SignableHeaders() {}

  /** A header name as S3 implementations read it: trimmed, lower case, {@code _} as {@code -}. */
  static String canonical(String name) {
    return name.trim().toLowerCase(Locale.ROOT).replace('_', '-');
  }

  /** Refuses ({@link IllegalArgumentException} naming the header) what is never signed. */
  static void check(Map<String, List<String>> headers, URI uri) {
    if (headers.size() > MAX_HEADERS) {
      throw new IllegalArgumentException(
          "Too many headers: " + headers.size() + " (at most " + MAX_HEADERS + ")");
    }
    Map<String, String> seen = new HashMap<>();
    for (Map.Entry<String, List<String>> header : headers.entrySet()) {
      String name = header.getKey();
      String trimmed = name.trim();
      if (!S3RequestParser.isToken(trimmed)) {
        throw new IllegalArgumentException(
            "Invalid header name: " + S3RequestParser.printable(name));
      }
      String canonical = canonical(name);
      if (trimmed.indexOf('_') >= 0) {
        throw new IllegalArgumentException(
            "Header "
                + name
                + " is not signed: stores read '_' in a header name as '-' ("
                + canonical
                + ")");
      }
      String before = seen.put(canonical, name);
      if (before != null) {
        throw new IllegalArgumentException(
            "Header " + canonical + " is given twice (as " + before + " and " + name + ")");
      }
    }
    // Names first, so that a header given twice is named as such whatever the order.
    for (Map.Entry<String, List<String>> header : headers.entrySet()) {
      String name = header.getKey();
      String canonical = canonical(name);
      if (!name.equals(name.trim())) {
        throw new IllegalArgumentException(
            "Header '"
                + name
                + "' is not signed: a header name has no surrounding whitespace ("
                + canonical
                + ")");
      }
      if (!allowed(canonical)) {
        throw new IllegalArgumentException(
            "Header "
                + name
                + " is not signed: not a header Iceberg's or the engines' S3 clients send");
      }
      checkValues(name, canonical, header.getValue(), uri);
    }
  }

  private static boolean allowed(String canonical) {
    if (ALLOWED.contains(canonical)) {
      return true;
    }
    for (String prefix : ALLOWED_PREFIXES) {
      if (canonical.startsWith(prefix) && canonical.length() > prefix.length()) {
        return true;
      }
    }
    return false;
  }

  private static void checkValues(String name, String canonical, List<String> values, URI uri) {
    int bytes = 0;
    for (String value : values) {
      if (value == null) {
        throw new IllegalArgumentException("Header " + name + " has a null value");
      }
      bytes += value.length();
      for (int i = 0; i < value.length(); i++) {
        char c = value.charAt(i);
        if (c != '\t' && (c < 0x20 || c == 0x7f)) {
          throw new IllegalArgumentException(
              "Header " + name + " holds a control character (header injection)");
        }
      }
    }
    if (bytes > MAX_HEADER_BYTES) {
      throw new IllegalArgumentException(
          "Header " + name + " is too long (" + bytes + " > " + MAX_HEADER_BYTES + ")");
    }
    if (canonical.equals("x-amz-acl")) {
      for (String value : values) {
        if (!OWNER_ONLY_ACLS.contains(value.trim())) {
          throw new IllegalArgumentException(
              "Header "
                  + name
                  + " "
                  + S3RequestParser.printable(value)
                  + " is not signed: it opens the object");
        }
      }
    }
    if (canonical.equals("host")) {
      String expected = uri.getRawAuthority().toLowerCase(Locale.ROOT);
      String hostOnly = uri.getHost().toLowerCase(Locale.ROOT);
      for (String value : values) {
        String v = value.trim().toLowerCase(Locale.ROOT);
        if (!v.equals(expected) && !v.equals(hostOnly)) {
          throw new IllegalArgumentException(
              "Header Host " + S3RequestParser.printable(value) + " does not name the URI's host");
        }
      }
    }
  }
}
