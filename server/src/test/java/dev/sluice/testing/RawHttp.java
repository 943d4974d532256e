package dev.sluice.testing;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * HTTP/1.1 over a plain socket, one request per connection. Unlike {@code java.net.http} it sends
 * what it is given: malformed percent-escapes, raw non-ASCII bytes in the path, any method token,
 * huge or odd headers, any body bytes.
 */
public final class RawHttp {
  private final String host;
  private final int port;
  private final String localAddress; // null: the system's choice

  public RawHttp(String host, int port) {
    this(host, port, null);
  }

  private RawHttp(String host, int port, String localAddress) {
    this.host = host;
    this.port = port;
    this.localAddress = localAddress;
  }

  /** The same, connecting from {@code localAddress} (a loopback address: 127.0.0.2, say). */
  public RawHttp from(String localAddress) {
    return new RawHttp(host, port, localAddress);
  }

  /**
   * One answer: the status, the headers (names lower-cased, last one wins), the body (de-chunked).
   */
  public record Response(int status, Map<String, String> headers, byte[] body) {
    public String bodyText() {
      return new String(body, StandardCharsets.UTF_8);
    }
  }

  /**
   * Sends {@code method target HTTP/1.1} with {@code headers} (name, value pairs, sent as given,
   * value bytes as ISO-8859-1 so any byte can be sent), plus Host, Connection: close and, with a
   * body, Content-Length.
   */
  public Response send(String method, byte[] target, List<String[]> headers, byte[] body)
      throws IOException {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    out.write(method.getBytes(StandardCharsets.ISO_8859_1));
    out.write(' ');
    out.write(target);
    out.write(" HTTP/1.1\r\n".getBytes(StandardCharsets.ISO_8859_1));
    header(out, "Host", host + ":" + port);
    header(out, "Connection", "close");
    for (String[] h : headers) {
      header(out, h[0], h[1]);
    }
    if (body != null) {
      header(out, "Content-Length", Integer.toString(body.length));
    }
    out.write("\r\n".getBytes(StandardCharsets.ISO_8859_1));
    if (body != null) {
      out.write(body);
    }
    try (Socket socket = new Socket()) {
      if (localAddress != null) {
        socket.bind(new InetSocketAddress(localAddress, 0));
      }
      socket.connect(new InetSocketAddress(host, port), 5_000);
      socket.setSoTimeout(30_000);
      OutputStream os = socket.getOutputStream();
      try {
        os.write(out.toByteArray());
        os.flush();
      } catch (IOException e) {
        // The server may answer (e.g. 431, 413) and close before reading everything: read that
        // answer.
      }
      return parse(socket.getInputStream());
    }
  }

  private static void header(ByteArrayOutputStream out, String name, String value)
      throws IOException {
    out.write((name + ": ").getBytes(StandardCharsets.ISO_8859_1));
    out.write(value.getBytes(StandardCharsets.ISO_8859_1));
    out.write("\r\n".getBytes(StandardCharsets.ISO_8859_1));
  }

  private static Response parse(InputStream in) throws IOException {
    byte[] all;
    try {
      all = in.readAllBytes();
    } catch (IOException e) {
      throw new IOException("Connection failed before an answer: " + e.getMessage(), e);
    }
    int headEnd = indexOf(all, "\r\n\r\n".getBytes(StandardCharsets.ISO_8859_1), 0);
    if (headEnd < 0) {
      throw new IOException(
          "No HTTP answer ("
              + all.length
              + " bytes): "
              + new String(all, 0, Math.min(all.length, 200), StandardCharsets.ISO_8859_1));
    }
    String[] lines = new String(all, 0, headEnd, StandardCharsets.ISO_8859_1).split("\r\n");
    String[] statusLine = lines[0].split(" ", 3);
    int status = Integer.parseInt(statusLine[1]);
    Map<String, String> headers = new LinkedHashMap<>();
    for (int i = 1; i < lines.length; i++) {
      int colon = lines[i].indexOf(':');
      if (colon > 0) {
        headers.put(
            lines[i].substring(0, colon).trim().toLowerCase(Locale.ROOT),
            lines[i].substring(colon + 1).trim());
      }
    }
    byte[] rest = java.util.Arrays.copyOfRange(all, headEnd + 4, all.length);
    if ("chunked".equalsIgnoreCase(headers.get("transfer-encoding"))) {
      rest = dechunk(rest);
    } else if (headers.containsKey("content-length")) {
      int length = Integer.parseInt(headers.get("content-length"));
      rest = java.util.Arrays.copyOf(rest, Math.min(length, rest.length));
    }
    return new Response(status, headers, rest);
  }

  private static byte[] dechunk(byte[] chunked) {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    int pos = 0;
    while (pos < chunked.length) {
      int eol = indexOf(chunked, new byte[] {'\r', '\n'}, pos);
      if (eol < 0) {
        break;
      }
      String sizeText =
          new String(chunked, pos, eol - pos, StandardCharsets.ISO_8859_1).split(";")[0].trim();
      int size = Integer.parseInt(sizeText, 16);
      if (size == 0) {
        break;
      }
      out.write(chunked, eol + 2, Math.min(size, chunked.length - eol - 2));
      pos = eol + 2 + size + 2;
    }
    return out.toByteArray();
  }

  private static int indexOf(byte[] haystack, byte[] needle, int from) {
    outer:
    for (int i = from; i <= haystack.length - needle.length; i++) {
      for (int j = 0; j < needle.length; j++) {
        if (haystack[i + j] != needle[j]) {
          continue outer;
        }
      }
      return i;
    }
    return -1;
  }
}
