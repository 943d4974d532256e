package dev.sluice.bench.http;

import java.io.Closeable;

/**
 * Opens connections to one server ({@code host:port}) that all send the same Authorization header
 * (or none). Two implementations, chosen with {@code --client}: a plain-socket HTTP/1.1 client (the
 * default, because it costs the shared CPU least: see bench/README.md) and the JDK's {@link
 * java.net.http.HttpClient}. ({@code --client loop} is not one of them: see {@link
 * dev.sluice.bench.load.EventLoopRunner}.)
 */
public interface HttpClients extends Closeable {
  HttpConnection open();

  /** {@code raw} or {@code jdk}, as {@code --client} names it. */
  String kind();

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
