package dev.sluice.http;

import java.util.LinkedHashMap;
import java.util.Map;

/**
 * What a route answers: a status and a body (serialized by the route's mapper; a {@code byte[]} is
 * JSON already serialized), or no body, and extra response headers.
 */
public record Reply(int status, Object body, boolean iceberg, Map<String, String> headers) {
  public static final Reply NO_CONTENT = new Reply(204, null, true);

  public Reply {
    headers = Map.copyOf(headers);
  }

  public Reply(int status, Object body, boolean iceberg) {
    this(status, body, iceberg, Map.of());
  }

  /** This reply with one more response header. */
  public Reply withHeader(String name, String value) {
    Map<String, String> more = new LinkedHashMap<>(headers);
    more.put(name, value);
    return new Reply(status, body, iceberg, more);
  }

  public static Reply ok(Object icebergBody) {
    return new Reply(200, icebergBody, true);
  }

  /** {@code 304 Not Modified}: no body, the current {@code ETag}. */
  public static Reply notModified(String etag) {
    return new Reply(304, null, true, Map.of("ETag", etag));
  }

  public static Reply okPlain(Object body) {
    return new Reply(200, body, false);
  }

  public static Reply status(int status, Object plainBody) {
    return new Reply(status, plainBody, false);
  }
}
