package dev.sluice.bench.http;

import java.nio.charset.StandardCharsets;
import java.util.Map;

/**
 * Encodes HTTP/1.1 requests to one server, head and body in one array, with the fixed headers every
 * request of a run carries (Host, User-Agent, Accept, and the Authorization header, or none). The
 * plain-socket client encodes each request with it; the event-loop client encodes its requests
 * once, before the run, so that both send byte-identical requests.
 */
public final class RequestEncoder {
  private final String fixedHeaders;

  public RequestEncoder(String host, int port, String authorization) {
    StringBuilder headers =
        new StringBuilder()
            .append("Host: ")
            .append(host)
            .append(':')
            .append(port)
            .append("\r\n")
            .append("User-Agent: sluice-bench\r\n")
            .append("Accept: application/json\r\n");
    if (authorization != null) {
      headers.append("Authorization: ").append(authorization).append("\r\n");
    }
    this.fixedHeaders = headers.toString();
  }

  /** {@code body} may be null (no body); {@code contentType} applies to it. */
  public byte[] encode(String method, String pathAndQuery, byte[] body, String contentType) {
    return encode(method, pathAndQuery, body, contentType, Map.of());
  }

  /** As above, with {@code headers} after the fixed ones. */
  public byte[] encode(
      String method,
      String pathAndQuery,
      byte[] body,
      String contentType,
      Map<String, String> headers) {
    StringBuilder head =
        new StringBuilder(256)
            .append(method)
            .append(' ')
            .append(pathAndQuery)
            .append(" HTTP/1.1\r\n")
            .append(fixedHeaders);
    headers.forEach((name, value) -> head.append(name).append(": ").append(value).append("\r\n"));
    if (body != null) {
      head.append("Content-Type: ")
          .append(contentType)
          .append("\r\n")
          .append("Content-Length: ")
          .append(body.length)
          .append("\r\n");
    } else if (!method.equals("GET") && !method.equals("HEAD")) {
      head.append("Content-Length: 0\r\n");
    }
    head.append("\r\n");
    byte[] headBytes = head.toString().getBytes(StandardCharsets.ISO_8859_1);
    if (body == null) {
      return headBytes;
    }
    byte[] all = new byte[headBytes.length + body.length];
    System.arraycopy(headBytes, 0, all, 0, headBytes.length);
    System.arraycopy(body, 0, all, headBytes.length, body.length);
    return all;
  }

  public byte[] get(String pathAndQuery) {
    return encode("GET", pathAndQuery, null, null);
  }

  public byte[] postJson(String path, byte[] json) {
    return encode("POST", path, json, "application/json");
  }
}
