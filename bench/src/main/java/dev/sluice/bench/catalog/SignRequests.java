package dev.sluice.bench.catalog;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Remote-signing requests (Iceberg's {@code POST …/sign} body) as Iceberg 1.10's S3FileIO sends
 * them: the SDK's per-attempt headers and user agent, a range for a read, type, length and expect
 * for an upload. Shared by the load scenario and the micro-benchmark so both sign the same thing.
 */
public final class SignRequests {
  /** The user agent of the AWS SDK 2.x that Iceberg's S3FileIO uses (Apache HTTP client). */
  public static final String USER_AGENT =
      "aws-sdk-java/2.31.78 md/io#sync md/http#Apache ua/2.1 os/Linux#6.1 lang/java#17.0.15"
          + " md/OpenJDK_64-Bit_Server_VM#17.0.15+6-Debian-1deb12u1 md/vendor#Debian"
          + " md/en_US exec-env/iceberg cfg/retry-mode#legacy m/D,Z";

  private SignRequests() {}

  /** The headers of a GET (ranged read of a data file) or a PUT (upload of one). */
  public static Map<String, List<String>> headers(String method, String invocationId) {
    Map<String, List<String>> headers = new LinkedHashMap<>();
    headers.put("amz-sdk-invocation-id", List.of(invocationId));
    headers.put("amz-sdk-request", List.of("attempt=1; max=4"));
    switch (method) {
      case "GET" -> headers.put("Range", List.of("bytes=4-8388611"));
      case "PUT" -> {
        headers.put("Content-Type", List.of("binary/octet-stream"));
        headers.put("Content-Length", List.of("1048576"));
        headers.put("Expect", List.of("100-continue"));
      }
      default -> throw new IllegalArgumentException("GET or PUT, not " + method);
    }
    headers.put("User-Agent", List.of(USER_AGENT));
    return headers;
  }

  /** The sign request body: {@code {"region","method","uri","headers"}}. */
  public static byte[] body(String region, String method, String uri, String invocationId) {
    ObjectNode body = Json.MAPPER.createObjectNode();
    body.put("region", region).put("method", method).put("uri", uri);
    ObjectNode headers = body.putObject("headers");
    headers(method, invocationId)
        .forEach(
            (name, values) -> {
              ArrayNode array = headers.putArray(name);
              values.forEach(array::add);
            });
    return Json.bytes(body);
  }
}
