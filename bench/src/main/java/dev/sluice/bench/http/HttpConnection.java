package dev.sluice.bench.http;

import java.io.IOException;
import java.util.Map;

/**
 * One client's keep-alive connection to a server. A load-generator thread owns one and uses it for
 * every request it sends, so N clients mean N TCP connections, as N engines would hold. Not
 * thread-safe.
 */
public interface HttpConnection extends AutoCloseable {
  /** Sends a request; {@code body} may be null (no body); {@code contentType} applies to it. */
  default HttpResult send(String method, String pathAndQuery, byte[] body, String contentType)
      throws IOException {
    return send(method, pathAndQuery, body, contentType, Map.of());
  }

  /** As above, with {@code headers} added to the fixed ones. */
  HttpResult send(
      String method,
      String pathAndQuery,
      byte[] body,
      String contentType,
      Map<String, String> headers)
      throws IOException;

  default HttpResult get(String pathAndQuery) throws IOException {
    return send("GET", pathAndQuery, null, null);
  }

  default HttpResult postJson(String path, byte[] json) throws IOException {
    return send("POST", path, json, "application/json");
  }

  default HttpResult putJson(String path, byte[] json) throws IOException {
    return send("PUT", path, json, "application/json");
  }

  @Override
  void close();
}
