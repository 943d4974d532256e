package dev.sluice.testing;

import static java.nio.charset.StandardCharsets.US_ASCII;

import java.io.ByteArrayOutputStream;

/**
 * Decodes an aws-chunked body ({@code hex-size[;chunk-signature=...]\r\n data \r\n ... 0...\r\n
 * [trailer lines\r\n] \r\n}) to the raw object bytes. Signatures and trailers are not checked here:
 * {@link R2SignatureCheck} re-encodes the decoded bytes with the SDK and compares.
 */
final class AwsChunked {
  private static final int MAX_CHUNK = 64 * 1024 * 1024;

  private AwsChunked() {}

  static byte[] decode(byte[] body) throws R2Refusal {
    ByteArrayOutputStream out = new ByteArrayOutputStream(body.length);
    int pos = 0;
    while (true) {
      int eol = lineEnd(body, pos);
      String header = new String(body, pos, eol - pos, US_ASCII);
      int semicolon = header.indexOf(';');
      String hex = (semicolon < 0 ? header : header.substring(0, semicolon)).trim();
      int size;
      try {
        size = Integer.parseInt(hex, 16);
      } catch (NumberFormatException e) {
        throw malformed("chunk size '" + hex + "' is not hex");
      }
      if (size < 0 || size > MAX_CHUNK) {
        throw malformed("chunk size " + size + " out of range");
      }
      pos = eol + 2;
      if (size == 0) {
        break;
      }
      if (pos + size + 2 > body.length) {
        throw malformed("chunk of " + size + " bytes runs past the body");
      }
      out.write(body, pos, size);
      pos += size;
      if (body[pos] != '\r' || body[pos + 1] != '\n') {
        throw malformed("chunk data not followed by CRLF");
      }
      pos += 2;
    }
    // Trailer lines (possibly none) end with an empty line.
    while (true) {
      int eol = lineEnd(body, pos);
      boolean empty = eol == pos;
      pos = eol + 2;
      if (empty) {
        break;
      }
    }
    if (pos != body.length) {
      throw malformed((body.length - pos) + " bytes after the final chunk");
    }
    return out.toByteArray();
  }

  private static int lineEnd(byte[] body, int from) throws R2Refusal {
    for (int i = from; i + 1 < body.length; i++) {
      if (body[i] == '\r' && body[i + 1] == '\n') {
        return i;
      }
    }
    throw malformed("line without CRLF");
  }

  private static R2Refusal malformed(String reason) {
    return R2Refusal.badRequest("IncompleteBody", "aws-chunked body: " + reason);
  }
}
