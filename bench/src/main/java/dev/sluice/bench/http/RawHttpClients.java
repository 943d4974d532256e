package dev.sluice.bench.http;

/** Plain-socket connections: each {@link #open()} is one lazily connected socket. */
final class RawHttpClients implements HttpClients {
  private final String host;
  private final int port;
  private final String authorization;

  RawHttpClients(String host, int port, String authorization) {
    this.host = host;
    this.port = port;
    this.authorization = authorization;
  }

  @Override
  public HttpConnection open() {
    return new RawHttpConnection(host, port, authorization);
  }

  @Override
  public String kind() {
    return "raw";
  }

  @Override
  public void close() {}
}
