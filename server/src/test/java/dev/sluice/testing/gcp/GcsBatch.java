package dev.sluice.testing.gcp;

import static java.nio.charset.StandardCharsets.ISO_8859_1;
import static java.nio.charset.StandardCharsets.UTF_8;
import static java.util.Objects.requireNonNull;

import java.io.ByteArrayOutputStream;
import java.net.URI;
import java.security.SecureRandom;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Function;

/**
 * {@code POST /batch/storage/v1} as GCS documents it (https://cloud.google.com/storage/docs/batch):
 * a multipart/mixed body whose parts are {@code application/http} requests, each served like a
 * request on its own (its Authorization, else the envelope's), answered as a multipart/mixed of
 * {@code application/http} responses in order, with {@code Content-ID: <response-ID>}. At most 100
 * requests per batch.
 */
final class GcsBatch {
  static final int MAX_REQUESTS = 100;
  private static final SecureRandom RANDOM = new SecureRandom();

  private final Function<Http.Call, Http.Reply> serveOne;

  GcsBatch(Function<Http.Call, Http.Reply> serveOne) {
    this.serveOne = requireNonNull(serveOne, "serveOne");
  }

  Http.Reply serve(Http.Call envelope) {
    if (!envelope.method().equals("POST")) {
      throw GcsError.unsupported(envelope.method() + " " + envelope.rawPath());
    }
    String contentType = envelope.header("Content-Type");
    if (contentType == null || !contentType.toLowerCase().startsWith("multipart/mixed")) {
      throw GcsError.badRequest("A batch request is multipart/mixed, not " + contentType);
    }
    List<Multipart.Part> parts = Multipart.parse(envelope.body(), Multipart.boundary(contentType));
    if (parts.size() > MAX_REQUESTS) {
      throw GcsError.badRequest(
          "A batch holds at most " + MAX_REQUESTS + " requests, not " + parts.size());
    }
    String boundary = "batch_" + Long.toHexString(RANDOM.nextLong());
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    for (Multipart.Part part : parts) {
      Http.Reply reply;
      try {
        reply = serveOne.apply(request(part, envelope));
      } catch (GcsError e) {
        reply = e.reply();
      }
      String contentId = part.headers().getOrDefault("Content-ID", "");
      String id =
          contentId.startsWith("<") && contentId.endsWith(">")
              ? contentId.substring(1, contentId.length() - 1)
              : contentId;
      StringBuilder head = new StringBuilder();
      head.append("--").append(boundary).append("\r\n");
      head.append("Content-Type: application/http\r\n");
      head.append("Content-ID: <response-").append(id).append(">\r\n\r\n");
      head.append("HTTP/1.1 ").append(reply.status).append(' ').append(reason(reply.status));
      head.append("\r\n");
      reply.headers.forEach(
          (name, value) -> head.append(name).append(": ").append(value).append("\r\n"));
      head.append("Content-Length: ").append(reply.body.length).append("\r\n\r\n");
      out.writeBytes(head.toString().getBytes(UTF_8));
      out.writeBytes(reply.body);
      out.writeBytes("\r\n".getBytes(UTF_8));
    }
    out.writeBytes(("--" + boundary + "--\r\n").getBytes(UTF_8));
    return new Http.Reply(200, out.toByteArray())
        .header("Content-Type", "multipart/mixed; boundary=" + boundary);
  }

  /** The {@code application/http} request inside a part: request line, headers, body. */
  private static Http.Call request(Multipart.Part part, Http.Call envelope) {
    byte[] raw = part.body();
    int lineEnd = Multipart.lineEnd(raw, 0);
    String requestLine = new String(raw, 0, lineEnd, ISO_8859_1).trim();
    String[] words = requestLine.split(" ");
    if (words.length < 2) {
      throw GcsError.badRequest("Invalid request line in a batch part: " + requestLine);
    }
    Multipart.Part rest =
        Multipart.part(Arrays.copyOfRange(raw, Multipart.skipLineBreak(raw, lineEnd), raw.length));
    Map<String, List<String>> headers = new HashMap<>();
    rest.headers().forEach((name, value) -> headers.put(name, List.of(value)));
    boolean hasAuthorization =
        rest.headers().keySet().stream().anyMatch(n -> n.equalsIgnoreCase("Authorization"));
    if (!hasAuthorization && envelope.header("Authorization") != null) {
      headers.put("Authorization", List.of(envelope.header("Authorization")));
    }
    // Parts may name the target as an absolute URL or as a path.
    URI target = URI.create(words[1]);
    return new Http.Call(words[0], target.getRawPath(), target.getRawQuery(), headers, rest.body());
  }

  private static String reason(int status) {
    return switch (status) {
      case 200 -> "OK";
      case 204 -> "No Content";
      case 400 -> "Bad Request";
      case 401 -> "Unauthorized";
      case 403 -> "Forbidden";
      case 404 -> "Not Found";
      case 412 -> "Precondition Failed";
      default -> "Status";
    };
  }
}
