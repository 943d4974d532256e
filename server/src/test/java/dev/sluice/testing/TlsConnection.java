package dev.sluice.testing;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.math.BigInteger;
import java.nio.charset.StandardCharsets;
import java.security.cert.X509Certificate;
import java.util.Locale;
import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLSocket;

/**
 * One TLS connection speaking HTTP/1.1 with keep-alive, so a test knows which connection each
 * request used and which certificate that connection was served.
 */
public final class TlsConnection implements AutoCloseable {
  private final SSLSocket socket;
  private final InputStream in;
  private final OutputStream out;
  private final String host;

  public TlsConnection(SSLContext context, String host, int port) throws IOException {
    this.host = host;
    this.socket = (SSLSocket) context.getSocketFactory().createSocket(host, port);
    socket.setSoTimeout(30_000);
    socket.startHandshake();
    this.in = socket.getInputStream();
    this.out = socket.getOutputStream();
  }

  /** The serial number of the certificate the server presented on this connection. */
  public BigInteger serverSerial() throws IOException {
    return ((X509Certificate) socket.getSession().getPeerCertificates()[0]).getSerialNumber();
  }

  /** {@code GET path} on this connection (kept open); returns the status. */
  public int get(String path, String bearerToken) throws IOException {
    String request =
        "GET "
            + path
            + " HTTP/1.1\r\nHost: "
            + host
            + "\r\n"
            + (bearerToken == null ? "" : "Authorization: Bearer " + bearerToken + "\r\n")
            + "\r\n";
    out.write(request.getBytes(StandardCharsets.US_ASCII));
    out.flush();
    String status = line();
    if (status == null) {
      throw new IOException("connection closed before an answer");
    }
    long length = -1;
    String header;
    while ((header = line()) != null && !header.isEmpty()) {
      String lower = header.toLowerCase(Locale.ROOT);
      if (lower.startsWith("content-length:")) {
        length = Long.parseLong(lower.substring("content-length:".length()).trim());
      }
    }
    if (length < 0) {
      throw new IOException("answer without Content-Length: " + status);
    }
    in.readNBytes((int) length);
    return Integer.parseInt(status.split(" ")[1]);
  }

  private String line() throws IOException {
    ByteArrayOutputStream buffer = new ByteArrayOutputStream();
    int b;
    while ((b = in.read()) >= 0) {
      if (b == '\n') {
        String text = buffer.toString(StandardCharsets.ISO_8859_1);
        return text.endsWith("\r") ? text.substring(0, text.length() - 1) : text;
      }
      buffer.write(b);
    }
    return buffer.size() == 0 ? null : buffer.toString(StandardCharsets.ISO_8859_1);
  }

  @Override
  public void close() throws IOException {
    socket.close();
  }
}
