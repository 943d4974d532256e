package dev.sluice.http;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import org.apache.iceberg.rest.responses.ErrorResponse;
import org.apache.iceberg.rest.responses.ErrorResponseParser;
import org.eclipse.jetty.http.HttpException;
import org.eclipse.jetty.http.HttpField;
import org.eclipse.jetty.http.HttpFields;
import org.eclipse.jetty.http.HttpHeader;
import org.eclipse.jetty.http.HttpStatus;
import org.eclipse.jetty.server.Request;
import org.eclipse.jetty.server.Response;
import org.eclipse.jetty.server.handler.ErrorHandler;
import org.eclipse.jetty.util.Callback;

/**
 * Jetty's own error answers, for requests it refuses before any route runs (a malformed
 * percent-escape in the path, oversize headers, a bad request line), as Iceberg {@code
 * ErrorResponse}s instead of Jetty's HTML page. The message is a fixed sentence per status: Jetty's
 * reason text could quote the offending header, which may hold a secret.
 */
final class JettyErrors extends ErrorHandler {

  @Override
  public boolean handle(Request request, Response response, Callback callback) {
    int status = response.getStatus();
    if (request.getAttribute(ERROR_EXCEPTION) instanceof HttpException http) {
      status = http.getCode();
    }
    if (status < 400 || status > 599) {
      status = 500;
    }
    byte[] body = json(status);
    response.setStatus(status);
    response.getHeaders().put(ERROR_CACHE_CONTROL);
    response.getHeaders().put("X-Request-ID", HttpServer.newRequestId());
    if ("HEAD".equals(request.getMethod())) {
      response.getHeaders().put(HttpHeader.CONTENT_LENGTH, 0L);
      response.write(true, null, callback);
      return true;
    }
    response.getHeaders().put(HttpHeader.CONTENT_TYPE, "application/json");
    response.getHeaders().put(HttpHeader.CONTENT_LENGTH, body.length);
    response.write(true, ByteBuffer.wrap(body), callback);
    return true;
  }

  /** The answer to a message Jetty could not parse far enough to make a request of. */
  @Override
  public ByteBuffer badMessageError(int status, String reason, HttpFields.Mutable fields) {
    fields.put(new HttpField(HttpHeader.CONTENT_TYPE, "application/json"));
    return ByteBuffer.wrap(json(status < 400 || status > 599 ? 500 : status));
  }

  static byte[] json(int status) {
    ErrorResponse error =
        ErrorResponse.builder()
            .responseCode(status)
            .withType(type(status))
            .withMessage(message(status))
            .build();
    return ErrorResponseParser.toJson(error).getBytes(StandardCharsets.UTF_8);
  }

  private static String type(int status) {
    return switch (status) {
      case 400 -> "BadRequestException";
      case 404 -> "NotFound";
      case 405 -> "MethodNotAllowed";
      case 413 -> "RequestEntityTooLarge";
      case 414 -> "URITooLong";
      case 431 -> "RequestHeaderFieldsTooLarge";
      default -> status >= 500 ? "InternalServerError" : "HttpError";
    };
  }

  private static String message(int status) {
    return switch (status) {
      case 400 ->
          "Malformed HTTP request: bad request line, header, or percent-encoding in the path";
      case 413 -> "Request body too large";
      case 414 -> "Request URI too long";
      case 431 -> "Request header fields too large";
      default ->
          status >= 500
              ? "Internal error; see the server log"
              : String.valueOf(HttpStatus.getMessage(status));
    };
  }
}
