package dev.sluice.http;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import org.apache.iceberg.rest.responses.ErrorResponse;
import org.apache.iceberg.rest.responses.ErrorResponseParser;
import org.eclipse.jetty.http.HttpHeader;
import org.eclipse.jetty.server.Request;
import org.eclipse.jetty.server.Response;
import org.eclipse.jetty.util.Callback;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Writes a {@link Reply} as the HTTP response: its body serialized (Iceberg's mapper for Iceberg
 * bodies), the request id, its headers, and a 500 ErrorResponse should serialization fail.
 */
final class ReplyWriter {
  private static final Logger LOG = LoggerFactory.getLogger(HttpServer.class);

  private ReplyWriter() {}

  static void write(
      Request request, Response response, Callback callback, Reply reply, String requestId) {
    byte[] bytes = null;
    if (reply.body() != null) {
      try {
        bytes =
            reply.body() instanceof byte[] json
                ? json
                : reply.body() instanceof String text
                    ? text.getBytes(StandardCharsets.UTF_8)
                    : reply.body() instanceof ErrorResponse e
                        ? ErrorResponseParser.toJson(e).getBytes(StandardCharsets.UTF_8)
                        : (reply.iceberg() ? Json.iceberg() : Json.plain())
                            .writeValueAsBytes(reply.body());
      } catch (Exception e) {
        LOG.error("Cannot serialize response", e);
        ErrorResponse error = ErrorMapper.withoutStorageFailures(e);
        bytes = ErrorResponseParser.toJson(error).getBytes(StandardCharsets.UTF_8);
        reply = new Reply(500, error, true);
      }
    }
    response.setStatus(reply.status());
    response.getHeaders().put("X-Request-ID", requestId);
    reply.headers().forEach(response.getHeaders()::put);
    if (reply.status() == 401) {
      response.getHeaders().put(HttpHeader.WWW_AUTHENTICATE, "Bearer");
    }
    if (bytes == null || "HEAD".equals(request.getMethod())) {
      if (reply.status() != 304) {
        // A 304's Content-Length would have to be the full response's (RFC 9110 8.6): none.
        response.getHeaders().put(HttpHeader.CONTENT_LENGTH, 0L);
      }
      response.write(true, null, callback);
      return;
    }
    if (!reply.headers().containsKey("Content-Type")) {
      response
          .getHeaders()
          .put(
              HttpHeader.CONTENT_TYPE,
              reply.body() instanceof String
                  ? "text/plain; version=0.0.4; charset=utf-8"
                  : "application/json");
    }
    response.getHeaders().put(HttpHeader.CONTENT_LENGTH, bytes.length);
    response.write(true, ByteBuffer.wrap(bytes), callback);
  }
}
