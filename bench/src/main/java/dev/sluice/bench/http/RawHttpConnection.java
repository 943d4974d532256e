package dev.sluice.bench.http;

import java.io.BufferedInputStream;
import java.io.ByteArrayOutputStream;
import java.io.EOFException;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.util.Locale;
import java.util.Map;

/**
 * A minimal HTTP/1.1 keep-alive client over one socket: writes the whole request in one write,
 * reads the status line, the headers it needs (Content-Length, Transfer-Encoding, Connection) and
 * the body. It exists because on a 2-core machine the load generator shares the CPU with the server
 * under test, and this client spends a fraction of what java.net.http does per request (measured:
 * see bench/README.md).
 */
final class RawHttpConnection implements HttpConnection {
  private final String host;
  private final int port;
  private final RequestEncoder encoder;
  private Socket socket;
  private InputStream in;
  private OutputStream out;
  private boolean reused;

  RawHttpConnection(String host, int port, String authorization) {
    this.host = host;
    this.port = port;
    this.encoder = new RequestEncoder(host, port, authorization);
  }

  @Override
  public HttpResult send(
      String method,
      String pathAndQuery,
      byte[] body,
      String contentType,
      Map<String, String> headers)
      throws IOException {
    byte[] request = encoder.encode(method, pathAndQuery, body, contentType, headers);
    boolean wasReused = reused;
    try {
      return exchange(method, request);
    } catch (EOFException | java.net.SocketException e) {
      // A kept-alive connection the server closed while idle fails on first use: reconnect once.
      if (!wasReused) {
        throw e;
      }
      return exchange(method, request);
    }
  }

  /**
   * One request and its response; on any failure the socket is dropped, its state being unknown.
   */
  private HttpResult exchange(String method, byte[] request) throws IOException {
    try {
      if (socket == null) {
        connect();
      }
      out.write(request);
      out.flush();
      HttpResult result = readResponse(method);
      reused = socket != null;
      return result;
    } catch (IOException | RuntimeException e) {
      closeSocket();
      throw e;
    }
  }

  private void connect() throws IOException {
    socket = new Socket();
    socket.setTcpNoDelay(true);
    socket.connect(new InetSocketAddress(host, port), 5_000);
    socket.setSoTimeout(60_000);
    in = new BufferedInputStream(socket.getInputStream(), 64 * 1024);
    out = socket.getOutputStream();
    reused = false;
  }

  private HttpResult readResponse(String method) throws IOException {
    String statusLine = readLine();
    if (statusLine.length() < 12 || !statusLine.startsWith("HTTP/1.")) {
      throw new IOException("Not an HTTP response: " + statusLine);
    }
    int status = Integer.parseInt(statusLine.substring(9, 12));
    long contentLength = -1;
    boolean chunked = false;
    boolean close = statusLine.startsWith("HTTP/1.0");
    for (String line = readLine(); !line.isEmpty(); line = readLine()) {
      int colon = line.indexOf(':');
      if (colon <= 0) {
        continue;
      }
      String name = line.substring(0, colon).trim().toLowerCase(Locale.ROOT);
      String value = line.substring(colon + 1).trim();
      switch (name) {
        case "content-length" -> contentLength = Long.parseLong(value);
        case "transfer-encoding" -> chunked = value.toLowerCase(Locale.ROOT).contains("chunked");
        case "connection" -> close = value.equalsIgnoreCase("close");
        default -> {}
      }
    }
    byte[] body;
    if (method.equals("HEAD")
        || status == 204
        || status == 304
        || (status >= 100 && status < 200)) {
      body = new byte[0];
    } else if (chunked) {
      body = readChunked();
    } else if (contentLength >= 0) {
      body = in.readNBytes((int) contentLength);
      if (body.length != contentLength) {
        throw new EOFException("Body ended early");
      }
    } else {
      body = in.readAllBytes(); // no length: the body ends with the connection
      close = true;
    }
    if (close) {
      closeSocket();
    }
    return new HttpResult(status, body);
  }

  private byte[] readChunked() throws IOException {
    ByteArrayOutputStream body = new ByteArrayOutputStream();
    while (true) {
      String sizeLine = readLine();
      int semicolon = sizeLine.indexOf(';');
      int size =
          Integer.parseInt(
              (semicolon >= 0 ? sizeLine.substring(0, semicolon) : sizeLine).trim(), 16);
      if (size == 0) {
        while (!readLine().isEmpty()) {
          // trailers: ignored
        }
        return body.toByteArray();
      }
      byte[] chunk = in.readNBytes(size);
      if (chunk.length != size) {
        throw new EOFException("Chunk ended early");
      }
      body.write(chunk);
      readLine(); // the CRLF after each chunk
    }
  }

  private String readLine() throws IOException {
    StringBuilder line = new StringBuilder(64);
    while (true) {
      int b = in.read();
      if (b < 0) {
        throw new EOFException("Connection closed by the server");
      }
      if (b == '\n') {
        int end = line.length();
        if (end > 0 && line.charAt(end - 1) == '\r') {
          line.setLength(end - 1);
        }
        return line.toString();
      }
      line.append((char) b);
    }
  }

  private void closeSocket() {
    if (socket != null) {
      try {
        socket.close();
      } catch (IOException ignored) {
        // closing: nothing to do
      }
    }
    socket = null;
    in = null;
    out = null;
    reused = false;
  }

  @Override
  public void close() {
    closeSocket();
  }
}
