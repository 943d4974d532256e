package dev.sluice.vending.s3;

import static java.util.Objects.requireNonNull;

import dev.sluice.vending.AccessMode;
import dev.sluice.vending.RequestTarget;
import dev.sluice.vending.StorageRequest;
import java.net.URI;
import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * Reads what an S3 request an engine wants signed would touch, for one catalog's endpoint and
 * addressing style, and refuses (an {@link IllegalArgumentException} naming the bad part) every
 * request that could reach anything but named objects, or a listing under a named prefix:
 *
 * <ul>
 *   <li>the URI must be the catalog's endpoint (scheme, host, port), path-style or, when the
 *       catalog does not force path style, virtual-hosted; no user info, no fragment;
 *   <li>the path is percent-decoded exactly once; an encoded separator ({@code %2F}, {@code %5C}),
 *       a backslash, an empty, {@code .} or {@code ..} segment, or a control character is refused,
 *       so the key that is checked is the key the store will use;
 *   <li>only the query parameters the operation needs, each at most once;
 *   <li>object operations: GET and HEAD (read), PUT (upload, part upload), POST (start or complete
 *       a multipart upload) and DELETE (object, or abort an upload) (write); on a bucket only a GET
 *       listing with a non-empty {@code prefix}; a multi-object delete and every other bucket-level
 *       request are refused;
 *   <li>only the headers the engines' S3 clients send, read as the store reads their names ({@link
 *       SignableHeaders}); no body (only a multi-object delete has one);
 *   <li>no raw {@code +} in the query, which S3 reads as a space (the SDK sends {@code %2B}).
 * </ul>
 */
final class S3RequestParser {
  private static final Set<String> OBJECT_READ_PARAMS = Set.of("versionId", "partNumber", "x-id");
  private static final Set<String> LIST_PARAMS =
      Set.of(
          "list-type",
          "prefix",
          "delimiter",
          "continuation-token",
          "max-keys",
          "start-after",
          "marker",
          "encoding-type",
          "fetch-owner",
          "x-id");
  private static final Set<String> SIGNED_METHODS = Set.of("GET", "HEAD", "PUT", "POST", "DELETE");
  // Compiled once: String.matches compiles its regex on every call, and headers are checked on
  // every sign request (two thirds of the parse's time in a profile of the sign route).
  private static final Pattern BUCKET_NAME = Pattern.compile("[A-Za-z0-9._-]+");

  private final String region;
  private final String scheme;
  private final String host;
  private final int port;
  private final boolean pathStyleOnly;

  /**
   * For a catalog whose S3 API is at {@code endpoint} (null: AWS's regional endpoint) in {@code
   * region}.
   */
  S3RequestParser(String region, String endpoint, boolean pathStyleOnly) {
    this.region = requireNonNull(region, "region");
    URI base = URI.create(endpoint != null ? endpoint : "https://s3." + region + ".amazonaws.com");
    this.scheme = base.getScheme().toLowerCase(Locale.ROOT);
    this.host = base.getHost().toLowerCase(Locale.ROOT);
    this.port = port(base);
    this.pathStyleOnly = pathStyleOnly;
  }

  RequestTarget parse(StorageRequest request) {
    if (!request.region().equals(region)) {
      throw new IllegalArgumentException(
          "Region " + printable(request.region()) + " is not the catalog's region " + region);
    }
    String method = request.method();
    if (!SIGNED_METHODS.contains(method)) {
      throw new IllegalArgumentException("Method " + printable(method) + " is not signed");
    }
    URI uri = request.uri();
    String bucketFromHost = checkAuthority(uri);
    SignableHeaders.check(request.headers(), uri);
    if (request.body() != null && !request.body().isEmpty()) {
      throw new IllegalArgumentException(
          "A request body is signed only for a multi-object delete, which is not signed");
    }

    List<String> segments = segments(uri.getRawPath());
    String bucket;
    if (bucketFromHost != null) {
      bucket = bucketFromHost;
    } else {
      if (segments.isEmpty()) {
        throw new IllegalArgumentException("The URI names no bucket: " + printable(uri));
      }
      bucket = segments.remove(0);
    }
    checkBucket(bucket);
    Map<String, String> query = query(uri.getRawQuery());

    if (segments.isEmpty()) {
      return bucketRequest(method, bucket, query);
    }
    String key = String.join("/", segments);
    return objectRequest(method, bucket, key, query);
  }

  private RequestTarget bucketRequest(String method, String bucket, Map<String, String> query) {
    if (method.equals("POST") && query.containsKey("delete")) {
      throw new IllegalArgumentException(
          "A multi-object delete (POST ?delete) is not signed: delete objects one by one");
    }
    if (!method.equals("GET")) {
      throw new IllegalArgumentException(
          "A bucket-level " + method + " is not signed (bucket " + bucket + ")");
    }
    allowOnly(query, LIST_PARAMS, "a listing");
    String prefix = query.get("prefix");
    if (prefix == null || prefix.isEmpty()) {
      throw new IllegalArgumentException(
          "A listing without a prefix (all of bucket " + bucket + ") is not signed");
    }
    return new RequestTarget(List.of(bucket + "/" + prefix), true, AccessMode.READ, "list");
  }

  private RequestTarget objectRequest(
      String method, String bucket, String key, Map<String, String> query) {
    String path = bucket + "/" + key;
    return switch (method) {
      case "GET", "HEAD" -> {
        allowOnly(query, OBJECT_READ_PARAMS, "a " + method + " of an object");
        yield new RequestTarget(
            List.of(path), false, AccessMode.READ, method.toLowerCase(Locale.ROOT));
      }
      case "PUT" -> {
        if (query.containsKey("uploadId") || query.containsKey("partNumber")) {
          requireBoth(query, "uploadId", "partNumber", "an upload part");
          allowOnly(query, Set.of("uploadId", "partNumber", "x-id"), "an upload part");
          yield new RequestTarget(List.of(path), false, AccessMode.READ_WRITE, "uploadPart");
        }
        allowOnly(query, Set.of("x-id"), "a PUT of an object");
        yield new RequestTarget(List.of(path), false, AccessMode.READ_WRITE, "put");
      }
      case "POST" -> {
        if (query.containsKey("uploads")) {
          allowOnly(query, Set.of("uploads", "x-id"), "starting a multipart upload");
          yield new RequestTarget(
              List.of(path), false, AccessMode.READ_WRITE, "createMultipartUpload");
        }
        if (query.containsKey("uploadId")) {
          allowOnly(query, Set.of("uploadId", "x-id"), "completing a multipart upload");
          yield new RequestTarget(
              List.of(path), false, AccessMode.READ_WRITE, "completeMultipartUpload");
        }
        throw new IllegalArgumentException(
            "A POST on an object is signed only to start (?uploads) or complete (?uploadId) a"
                + " multipart upload");
      }
      case "DELETE" -> {
        allowOnly(query, Set.of("uploadId", "x-id"), "a DELETE of an object");
        yield new RequestTarget(
            List.of(path),
            false,
            AccessMode.READ_WRITE,
            query.containsKey("uploadId") ? "abortMultipartUpload" : "delete");
      }
      default -> throw new IllegalStateException(method);
    };
  }

  /** The bucket named by a virtual-hosted URI's host, or null for a path-style URI. */
  private String checkAuthority(URI uri) {
    if (!uri.isAbsolute() || uri.isOpaque() || uri.getRawAuthority() == null) {
      throw new IllegalArgumentException("The URI is not an absolute URL: " + printable(uri));
    }
    if (uri.getRawUserInfo() != null || uri.getRawFragment() != null) {
      throw new IllegalArgumentException(
          "The URI may carry no user info or fragment: " + printable(uri));
    }
    String uriHost = uri.getHost() == null ? null : uri.getHost().toLowerCase(Locale.ROOT);
    if (!scheme.equals(uri.getScheme().toLowerCase(Locale.ROOT))
        || uriHost == null
        || port(uri) != port) {
      throw new IllegalArgumentException(
          "The URI is not the catalog's S3 endpoint " + scheme + "://" + host + ":" + port);
    }
    if (uriHost.equals(host)) {
      return null;
    }
    if (uriHost.endsWith("." + host)) {
      String bucket = uriHost.substring(0, uriHost.length() - host.length() - 1);
      if (!pathStyleOnly) {
        return bucket;
      }
      // A store that reads paths path-style would serve the path's first segment as the bucket,
      // not the one the host names: the signed bucket and the served bucket would differ.
      throw new IllegalArgumentException(
          "A virtual-hosted request (bucket "
              + printable(bucket)
              + " in the host) is not signed: the catalog uses path-style addressing, and signs"
              + " virtual-hosted requests only when storageConfigInfo.pathStyleAccess is false,"
              + " declaring that its endpoint serves buckets by host");
    }
    throw new IllegalArgumentException(
        "The URI's host "
            + printable(uriHost)
            + " is not the catalog's S3 endpoint "
            + host
            + (pathStyleOnly ? " (path-style addressing)" : ""));
  }

  private static void checkBucket(String bucket) {
    if (bucket.isEmpty() || bucket.length() > 255 || !BUCKET_NAME.matcher(bucket).matches()) {
      throw new IllegalArgumentException("Invalid bucket name: " + printable(bucket));
    }
  }

  /** The decoded path segments; refuses what could make the checked key differ from S3's. */
  private static List<String> segments(String rawPath) {
    if (rawPath == null || rawPath.isEmpty() || rawPath.equals("/")) {
      return new ArrayList<>();
    }
    if (!rawPath.startsWith("/")) {
      throw new IllegalArgumentException("The URI path is not absolute: " + printable(rawPath));
    }
    String lower = rawPath.toLowerCase(Locale.ROOT);
    if (lower.contains("%2f") || lower.contains("%5c") || rawPath.contains("\\")) {
      throw new IllegalArgumentException(
          "An encoded separator or a backslash in the URI path is not signed: "
              + printable(rawPath));
    }
    String[] raw = rawPath.substring(1).split("/", -1);
    List<String> segments = new ArrayList<>(raw.length);
    for (int i = 0; i < raw.length; i++) {
      boolean bucketOnly = i == raw.length - 1 && i == 1 && raw[i].isEmpty(); // "/bucket/"
      if (bucketOnly) {
        break;
      }
      String segment = decode(raw[i], "path segment");
      if (segment.isEmpty() || segment.equals(".") || segment.equals("..")) {
        throw new IllegalArgumentException(
            "An empty, '.' or '..' segment in the URI path is not signed: " + printable(rawPath));
      }
      segments.add(segment);
    }
    return segments;
  }

  private static Map<String, String> query(String rawQuery) {
    Map<String, String> params = new LinkedHashMap<>();
    if (rawQuery == null || rawQuery.isEmpty()) {
      return params;
    }
    if (rawQuery.indexOf('+') >= 0) {
      // S3 reads it as a space, so the prefix checked would not be the prefix listed.
      throw new IllegalArgumentException(
          "A raw '+' in the query is not signed: send %2B (or %20 for a space)");
    }
    for (String pair : rawQuery.split("&", -1)) {
      int eq = pair.indexOf('=');
      String name = decode(eq < 0 ? pair : pair.substring(0, eq), "query parameter");
      String value = eq < 0 ? "" : decode(pair.substring(eq + 1), "query value");
      if (name.isEmpty()) {
        throw new IllegalArgumentException("An empty query parameter name is not signed");
      }
      if (params.put(name, value) != null) {
        throw new IllegalArgumentException(
            "Query parameter " + printable(name) + " appears more than once");
      }
    }
    return params;
  }

  private static void allowOnly(Map<String, String> query, Set<String> allowed, String what) {
    for (String name : query.keySet()) {
      if (!allowed.contains(name)) {
        throw new IllegalArgumentException(
            "Query parameter " + printable(name) + " is not signed for " + what);
      }
    }
  }

  private static void requireBoth(Map<String, String> query, String a, String b, String what) {
    if (!query.containsKey(a) || !query.containsKey(b)) {
      throw new IllegalArgumentException(what + " needs both " + a + " and " + b);
    }
  }

  /** An HTTP field name: one or more RFC 9110 token characters (checked per request, no regex). */
  static boolean isToken(String name) {
    if (name.isEmpty()) {
      return false;
    }
    for (int i = 0; i < name.length(); i++) {
      char c = name.charAt(i);
      boolean alphanumeric =
          (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9');
      if (!alphanumeric && "!#$%&'*+-.^_`|~".indexOf(c) < 0) {
        return false;
      }
    }
    return true;
  }

  /** Percent-decodes once, strictly (UTF-8; '+' stays '+'); no control characters. */
  static String decode(String raw, String what) {
    if (raw.indexOf('%') < 0) {
      checkPrintable(raw, what);
      return raw;
    }
    ByteBuffer bytes = ByteBuffer.allocate(raw.length());
    for (int i = 0; i < raw.length(); i++) {
      char c = raw.charAt(i);
      if (c == '%') {
        if (i + 2 >= raw.length()) {
          throw new IllegalArgumentException("Malformed percent-encoding in " + what);
        }
        int hi = Character.digit(raw.charAt(i + 1), 16);
        int lo = Character.digit(raw.charAt(i + 2), 16);
        if (hi < 0 || lo < 0) {
          throw new IllegalArgumentException("Malformed percent-encoding in " + what);
        }
        bytes.put((byte) (hi * 16 + lo));
        i += 2;
      } else if (c > 0x7f) {
        throw new IllegalArgumentException("A raw non-ASCII character in " + what);
      } else {
        bytes.put((byte) c);
      }
    }
    bytes.flip();
    String decoded;
    try {
      decoded =
          StandardCharsets.UTF_8
              .newDecoder()
              .onMalformedInput(CodingErrorAction.REPORT)
              .onUnmappableCharacter(CodingErrorAction.REPORT)
              .decode(bytes)
              .toString();
    } catch (CharacterCodingException e) {
      throw new IllegalArgumentException("Invalid UTF-8 in " + what);
    }
    checkPrintable(decoded, what);
    return decoded;
  }

  private static void checkPrintable(String value, String what) {
    for (int i = 0; i < value.length(); i++) {
      if (Character.isISOControl(value.charAt(i))) {
        throw new IllegalArgumentException("A control character in " + what);
      }
    }
  }

  private static int port(URI uri) {
    if (uri.getPort() >= 0) {
      return uri.getPort();
    }
    return "http".equalsIgnoreCase(uri.getScheme()) ? 80 : 443;
  }

  /** For messages: at most 200 characters, control characters shown as '?'. */
  static String printable(Object value) {
    String s = String.valueOf(value);
    s = s.length() <= 200 ? s : s.substring(0, 200) + "…";
    return s.replaceAll("\\p{Cntrl}", "?");
  }
}
