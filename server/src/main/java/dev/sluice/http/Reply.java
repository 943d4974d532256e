package dev.sluice.http;

import java.util.LinkedHashMap;
import java.util.Map;
import org.apache.iceberg.rest.responses.ErrorResponse;

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

  /**
   * The error's type as its protocol names it: an Iceberg {@code ErrorResponse}'s {@code type}, or
   * an OAuth2 error's {@code error} code (RFC 6749, section 5.2); null for any other answer.
   */
  public String errorType() {
    if (body instanceof ErrorResponse error) {
      return error.type();
    }
    if (status >= 400 && body instanceof Map<?, ?> map && map.get("error") instanceof String code) {
      return code;
    }
    return null;
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
