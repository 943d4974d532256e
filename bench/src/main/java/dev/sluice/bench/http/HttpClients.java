package dev.sluice.bench.http;

import java.io.Closeable;

/**
 * Opens connections to one server ({@code host:port}) that all send the same Authorization header
 * (or none). Two implementations, chosen with {@code --client}: a plain-socket HTTP/1.1 client (the
 * default, because it costs the shared CPU least: see bench/README.md) and the JDK's {@link
 * java.net.http.HttpClient}.
 */
public interface HttpClients extends Closeable {
  HttpConnection open();

  @Override
  void close();

  static HttpClients of(String kind, String host, int port, String authorization) {
    return switch (kind) {
      case "raw" -> new RawHttpClients(host, port, authorization);
      case "jdk" -> new JdkHttpClients(host, port, authorization);
      default -> throw new IllegalArgumentException("--client must be raw or jdk, not " + kind);
    };
  }
}
