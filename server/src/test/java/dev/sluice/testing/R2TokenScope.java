package dev.sluice.testing;

import java.io.ByteArrayInputStream;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import javax.xml.XMLConstants;
import javax.xml.parsers.DocumentBuilderFactory;
import org.w3c.dom.Document;
import org.w3c.dom.NodeList;

/**
 * What a verified R2 temporary credential may do, as R2 documents it: only its bucket; only object
 * keys that start with one of its {@code prefixPaths} (or equal one of its {@code objectPaths});
 * listings only with a {@code prefix} inside those; writes only with {@code object-read-write}.
 * Everything else (bucket operations, sub-resources such as {@code ?acl}) is refused. Keys are
 * compared literally, as R2 does, so {@code db/t2/x} is outside {@code db/t/}.
 */
final class R2TokenScope {
  static final String READ_ONLY = "object-read-only";
  static final String READ_WRITE = "object-read-write";

  private static final Set<String> LIST_PARAMS =
      Set.of(
          "list-type",
          "prefix",
          "delimiter",
          "max-keys",
          "continuation-token",
          "start-after",
          "marker",
          "encoding-type",
          "fetch-owner",
          "x-id");
  private static final Set<String> READ_PARAMS =
      Set.of(
          "x-id",
          "partNumber",
          "uploadId",
          "response-content-type",
          "response-content-disposition",
          "response-content-encoding",
          "response-content-language",
          "response-cache-control",
          "response-expires");
  private static final Set<String> PUT_PARAMS = Set.of("x-id", "partNumber", "uploadId");
  private static final Set<String> DELETE_PARAMS = Set.of("x-id", "uploadId");
  private static final Set<String> POST_PARAMS = Set.of("x-id", "uploads", "uploadId");

  private R2TokenScope() {}

  /**
   * Refuses {@code request} unless {@code claims} allow it; {@code body} is the decoded body (the
   * DeleteObjects key list is read from it).
   */
  static void authorize(R2Request request, R2TokenCheck.Claims claims, byte[] body)
      throws R2Refusal {
    if (!claims.scope().equals(READ_ONLY) && !claims.scope().equals(READ_WRITE)) {
      throw R2Refusal.accessDenied("unsupported scope " + claims.scope());
    }
    String path = request.rawPath();
    if (!path.startsWith("/") || path.length() == 1) {
      throw R2Refusal.accessDenied("not a bucket or object request: " + path);
    }
    int slash = path.indexOf('/', 1);
    String bucket = R2Request.decode(slash < 0 ? path.substring(1) : path.substring(1, slash));
    if (!bucket.equals(claims.bucket())) {
      throw R2Refusal.accessDenied("bucket " + bucket + " is not the token's " + claims.bucket());
    }
    String key = slash < 0 ? "" : R2Request.decode(path.substring(slash + 1));
    Map<String, List<String>> query = request.query();
    String method = request.method();
    if (key.isEmpty()) {
      authorizeBucket(method, query, claims, body);
    } else {
      authorizeObject(request, method, key, query, claims);
    }
  }

  private static void authorizeBucket(
      String method, Map<String, List<String>> query, R2TokenCheck.Claims claims, byte[] body)
      throws R2Refusal {
    if (method.equals("GET") && LIST_PARAMS.containsAll(query.keySet())) {
      List<String> prefix = query.get("prefix");
      if (prefix == null || prefix.size() != 1) {
        throw R2Refusal.accessDenied("listing without a prefix (the whole bucket)");
      }
      if (!underPrefix(prefix.get(0), claims)) {
        throw R2Refusal.accessDenied("listing prefix " + prefix.get(0) + " is outside the token");
      }
      return;
    }
    if (method.equals("POST") && query.keySet().equals(Set.of("delete"))) {
      requireWrite(claims, "DeleteObjects");
      for (String key : deleteKeys(body)) {
        requireKey(key, claims);
      }
      return;
    }
    throw R2Refusal.accessDenied("bucket operation " + method + " " + query.keySet());
  }

  private static void authorizeObject(
      R2Request request,
      String method,
      String key,
      Map<String, List<String>> query,
      R2TokenCheck.Claims claims)
      throws R2Refusal {
    Set<String> allowed =
        switch (method) {
          case "GET", "HEAD" -> READ_PARAMS;
          case "PUT" -> PUT_PARAMS;
          case "DELETE" -> DELETE_PARAMS;
          case "POST" -> POST_PARAMS;
          default -> throw R2Refusal.accessDenied("method " + method);
        };
    if (!allowed.containsAll(query.keySet())) {
      throw R2Refusal.accessDenied("object operation " + method + " " + query.keySet());
    }
    if (!method.equals("GET") && !method.equals("HEAD")) {
      requireWrite(claims, method + " " + key);
    }
    requireKey(key, claims);
    String copySource = request.header("x-amz-copy-source").orElse(null);
    if (copySource != null) {
      String source = R2Request.decode(copySource.replaceFirst("\\?.*$", ""));
      source = source.startsWith("/") ? source.substring(1) : source;
      int slash = source.indexOf('/');
      if (slash < 0 || !source.substring(0, slash).equals(claims.bucket())) {
        throw R2Refusal.accessDenied("copy source " + source + " is outside the token's bucket");
      }
      requireKey(source.substring(slash + 1), claims);
    }
  }

  private static void requireWrite(R2TokenCheck.Claims claims, String what) throws R2Refusal {
    if (!claims.writable()) {
      throw R2Refusal.accessDenied(what + " needs " + READ_WRITE + ", token has " + claims.scope());
    }
  }

  private static void requireKey(String key, R2TokenCheck.Claims claims) throws R2Refusal {
    for (String segment : key.split("/", -1)) {
      // R2 takes keys literally; the upstream might not, so dot segments never pass.
      if (segment.equals(".") || segment.equals("..")) {
        throw R2Refusal.accessDenied("key " + key + " has a dot segment");
      }
    }
    if (!underPrefix(key, claims) && !claims.objectPaths().contains(key)) {
      throw R2Refusal.accessDenied("key " + key + " is outside " + claims.prefixPaths());
    }
  }

  private static boolean underPrefix(String key, R2TokenCheck.Claims claims) {
    return claims.prefixPaths().stream().anyMatch(key::startsWith);
  }

  /** The {@code <Key>} of every {@code <Object>} in a DeleteObjects body. */
  static List<String> deleteKeys(byte[] body) throws R2Refusal {
    try {
      DocumentBuilderFactory factory = DocumentBuilderFactory.newInstance();
      factory.setNamespaceAware(true); // a prefixed <s3:Key> is a key too
      factory.setFeature("http://apache.org/xml/features/disallow-doctype-decl", true);
      factory.setFeature(XMLConstants.FEATURE_SECURE_PROCESSING, true);
      factory.setExpandEntityReferences(false);
      Document doc = factory.newDocumentBuilder().parse(new ByteArrayInputStream(body));
      NodeList nodes = doc.getElementsByTagNameNS("*", "Key");
      List<String> keys = new ArrayList<>();
      for (int i = 0; i < nodes.getLength(); i++) {
        keys.add(nodes.item(i).getTextContent());
      }
      return keys;
    } catch (Exception e) {
      throw R2Refusal.badRequest("MalformedXML", "DeleteObjects body is not XML");
    }
  }
}
