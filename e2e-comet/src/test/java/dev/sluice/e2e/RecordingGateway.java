package dev.sluice.e2e;

import static java.util.Objects.requireNonNull;

import java.io.BufferedInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.HttpURLConnection;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicReference;

/**
 * A tiny HTTP/1.1 gateway on loopback between an engine and Sluice, where a load balancer would
 * sit: it passes every request on, header names as written, and records each exchange (with the
 * headers Iceberg's conditional loads and idempotent mutations use). Armed with {@link #failNext},
 * it passes the next matching request on to Sluice, which applies it, but answers the engine with a
 * gateway's error instead of Sluice's answer: what an engine sees when an answer is lost on the way
 * back. One request per connection ({@code Connection: close}).
 *
 * <p>Raw sockets rather than the JDK's HTTP server and client: both change the case of header
 * names, and Iceberg's client reads {@code ETag} by its exact name.
 */
final class RecordingGateway implements AutoCloseable {
  /** Hop-by-hop headers (RFC 9110, 7.6.1), and the framing this gateway sets itself. */
  private static final Set<String> NOT_FORWARDED =
      Set.of(
          "connection",
          "content-length",
          "expect",
          "host",
          "keep-alive",
          "proxy-connection",
          "te",
          "trailer",
          "transfer-encoding",
          "upgrade");

  /** One request as the engine sent it, Sluice's answer, and what the engine was answered. */
  record Exchange(
      String method,
      String path,
      Map<String, String> requestHeaders,
      byte[] requestBody,
      int upstreamStatus,
      Map<String, String> upstreamHeaders,
      int status,
      long receivedAtMillis) {
    /** Method, path and statuses only: the headers carry a bearer token. */
    @Override
    public String toString() {
      return method + " " + path + " -> " + status + " (Sluice: " + upstreamStatus + ")";
    }

    /** A request header, or null (names compared without case). */
    String requestHeader(String name) {
      return header(requestHeaders, name);
    }

    /** A header of Sluice's answer, or null. */
    String upstreamHeader(String name) {
      return header(upstreamHeaders, name);
    }
  }

  /** Sluice's answer: its status, its headers (names as Sluice wrote them) and its body. */
  record Answer(int status, Map<String, String> headers, byte[] body) {
    String header(String name) {
      return RecordingGateway.header(headers, name);
    }

    String text() {
      return new String(body, StandardCharsets.UTF_8);
    }
  }

  /**
   * A gateway's answer in place of Sluice's, to the next {@code method} request to {@code path}.
   */
  private record Fault(String method, String path, int status, Map<String, String> headers) {}

  private final boolean lowercaseAnswerHeaders;
  private final ServerSocket socket;
  private final ExecutorService threads;
  private final String upstreamRoot;
  private final List<Exchange> exchanges = new ArrayList<>();
  private final AtomicReference<Fault> fault = new AtomicReference<>();

  private RecordingGateway(String upstreamRoot, boolean lowercaseAnswerHeaders) throws IOException {
    this.upstreamRoot = requireNonNull(upstreamRoot, "upstreamRoot");
    this.lowercaseAnswerHeaders = lowercaseAnswerHeaders;
    this.socket = new ServerSocket(0, 64, InetAddress.getLoopbackAddress());
    // Executors' credential refreshes arrive in parallel with the driver's calls.
    this.threads = Executors.newCachedThreadPool();
    threads.execute(this::accept);
  }

  /** A gateway in front of {@code upstreamRoot} (Sluice's {@code http://host:port}). */
  static RecordingGateway start(String upstreamRoot) throws IOException {
    return new RecordingGateway(upstreamRoot, false);
  }

  /**
   * A gateway that writes the names of Sluice's answer headers in lower case, as some proxies do
   * (HTTP field names are case-insensitive).
   */
  static RecordingGateway lowercasing(String upstreamRoot) throws IOException {
    return new RecordingGateway(upstreamRoot, true);
  }

  /** This gateway's root URL, in place of Sluice's. */
  String rootUrl() {
    return "http://127.0.0.1:" + socket.getLocalPort();
  }

  /**
   * Passes the next {@code method} request to {@code path} on to Sluice, then answers the engine
   * {@code status} with {@code headers} (and a gateway's plain-text body) instead of Sluice's
   * answer.
   */
  void failNext(String method, String path, int status, Map<String, String> headers) {
    if (!fault.compareAndSet(null, new Fault(method, path, status, Map.copyOf(headers)))) {
      throw new IllegalStateException("a fault is already armed");
    }
  }

  /** Whether the armed fault is still waiting for its request. */
  boolean armed() {
    return fault.get() != null;
  }

  /** Every exchange so far, in the order the requests arrived. */
  List<Exchange> exchanges() {
    synchronized (exchanges) {
      return List.copyOf(exchanges);
    }
  }

  /** The exchanges since {@code mark} (a size of {@link #exchanges}). */
  List<Exchange> since(int mark) {
    List<Exchange> all = exchanges();
    return all.subList(mark, all.size());
  }

  /** The {@code method} requests among {@code exchanges} to {@code path} (with any query). */
  static List<Exchange> requests(String method, List<Exchange> exchanges, String path) {
    return exchanges.stream()
        .filter(e -> e.method().equals(method))
        .filter(e -> e.path().equals(path) || e.path().startsWith(path + "?"))
        .toList();
  }

  /** Sends a recorded request to Sluice again, exactly (headers, body), bypassing the gateway. */
  Answer resend(Exchange recorded) throws IOException {
    return forward(
        recorded.method(), recorded.path(), recorded.requestHeaders(), recorded.requestBody());
  }

  private void accept() {
    while (!socket.isClosed()) {
      try {
        Socket client = socket.accept();
        threads.execute(() -> serve(client));
      } catch (IOException e) {
        return; // closed
      }
    }
  }

  private void serve(Socket client) {
    try (client) {
      InputStream in = new BufferedInputStream(client.getInputStream());
      long received = System.currentTimeMillis();
      String[] requestLine = line(in).split(" ");
      String method = requestLine[0];
      String path = requestLine[1];
      Map<String, String> headers = new LinkedHashMap<>();
      for (String h = line(in); !h.isEmpty(); h = line(in)) {
        int colon = h.indexOf(':');
        headers.merge(
            h.substring(0, colon).trim(), h.substring(colon + 1).trim(), (a, b) -> a + "," + b);
      }
      if ("chunked".equalsIgnoreCase(header(headers, "Transfer-Encoding"))) {
        throw new IOException("chunked request bodies are not supported: " + method + " " + path);
      }
      String length = header(headers, "Content-Length");
      byte[] body = in.readNBytes(length == null ? 0 : Integer.parseInt(length));

      Answer answer = forward(method, path, headers, body);
      Fault f = fault.get();
      boolean failed =
          f != null
              && f.method().equals(method)
              && f.path().equals(path)
              && fault.compareAndSet(f, null);
      int status = failed ? f.status() : answer.status();
      synchronized (exchanges) {
        exchanges.add(
            new Exchange(
                method, path, headers, body, answer.status(), answer.headers(), status, received));
      }
      OutputStream out = client.getOutputStream();
      if (failed) {
        byte[] text =
            ("gateway: upstream answer lost (" + status + ")").getBytes(StandardCharsets.UTF_8);
        Map<String, String> own = new LinkedHashMap<>(f.headers());
        own.put("Content-Type", "text/plain");
        reply(out, method, status, own, text);
      } else {
        Map<String, String> answerHeaders = new LinkedHashMap<>();
        answer
            .headers()
            .forEach(
                (n, v) ->
                    answerHeaders.put(lowercaseAnswerHeaders ? n.toLowerCase(Locale.ROOT) : n, v));
        reply(out, method, status, answerHeaders, answer.body());
      }
    } catch (IOException | RuntimeException e) {
      System.err.println("gateway: " + e);
    }
  }

  private static void reply(
      OutputStream out, String method, int status, Map<String, String> headers, byte[] body)
      throws IOException {
    StringBuilder head = new StringBuilder("HTTP/1.1 ").append(status).append(" -\r\n");
    headers.forEach(
        (n, v) -> {
          if (!NOT_FORWARDED.contains(n.toLowerCase(Locale.ROOT))) {
            head.append(n).append(": ").append(v).append("\r\n");
          }
        });
    boolean noBody = status == 204 || status == 304 || method.equals("HEAD");
    if (!noBody) {
      head.append("Content-Length: ").append(body.length).append("\r\n");
    }
    head.append("Connection: close\r\n\r\n");
    out.write(head.toString().getBytes(StandardCharsets.ISO_8859_1));
    if (!noBody) {
      out.write(body);
    }
    out.flush();
  }

  /** One CRLF-terminated line of a request head. */
  private static String line(InputStream in) throws IOException {
    ByteArrayOutputStream b = new ByteArrayOutputStream();
    for (int c = in.read(); c != '\n'; c = in.read()) {
      if (c < 0) {
        throw new IOException("connection closed inside a request head");
      }
      if (c != '\r') {
        b.write(c);
      }
    }
    return b.toString(StandardCharsets.ISO_8859_1);
  }

  /** One request to Sluice; header names of its answer kept as Sluice wrote them. */
  private Answer forward(String method, String path, Map<String, String> headers, byte[] body)
      throws IOException {
    HttpURLConnection c =
        (HttpURLConnection) URI.create(upstreamRoot + path).toURL().openConnection();
    c.setRequestMethod(method);
    c.setInstanceFollowRedirects(false);
    c.setUseCaches(false);
    c.setConnectTimeout(5_000);
    c.setReadTimeout(60_000);
    headers.forEach(
        (n, v) -> {
          if (!NOT_FORWARDED.contains(n.toLowerCase(Locale.ROOT))) {
            c.setRequestProperty(n, v);
          }
        });
    if (body.length > 0) {
      c.setDoOutput(true);
      c.setFixedLengthStreamingMode(body.length);
      try (OutputStream out = c.getOutputStream()) {
        out.write(body);
      }
    }
    int status = c.getResponseCode();
    Map<String, String> answerHeaders = new LinkedHashMap<>();
    c.getHeaderFields()
        .forEach(
            (n, v) -> {
              if (n != null) {
                answerHeaders.put(n, String.join(",", v));
              }
            });
    InputStream in = status >= 400 ? c.getErrorStream() : c.getInputStream();
    byte[] answer;
    try (InputStream stream = in == null ? InputStream.nullInputStream() : in) {
      answer = stream.readAllBytes();
    }
    return new Answer(status, answerHeaders, answer);
  }

  /** A header's value, or null (names compared without case). */
  static String header(Map<String, String> headers, String name) {
    return headers.entrySet().stream()
        .filter(e -> e.getKey().equalsIgnoreCase(name))
        .map(Map.Entry::getValue)
        .findFirst()
        .orElse(null);
  }

  @Override
  public void close() {
    try {
      socket.close();
    } catch (IOException e) {
      // closing only
    }
    threads.shutdownNow();
  }
}
