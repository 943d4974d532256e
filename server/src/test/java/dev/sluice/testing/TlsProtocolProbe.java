package dev.sluice.testing;

import dev.sluice.tls.ServerTls;
import dev.sluice.tls.TlsSettings;
import java.nio.file.Path;
import java.time.Duration;
import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLSocket;
import javax.net.ssl.TrustManager;
import javax.net.ssl.X509TrustManager;
import org.eclipse.jetty.server.HttpConnectionFactory;
import org.eclipse.jetty.server.Server;
import org.eclipse.jetty.server.ServerConnector;
import org.eclipse.jetty.server.SslConnectionFactory;

/**
 * Run in a child JVM whose {@code java.security} allows TLS 1.0/1.1 (as an operator's relaxed
 * policy might): serves Sluice's TLS ({@link ServerTls}) from the given PEM files on a loopback
 * port and tries a handshake with each protocol named, printing {@code <protocol> OK <negotiated>}
 * or {@code <protocol> REFUSED <reason>}. So the refusal is Sluice's configuration, not the JDK's
 * default policy.
 */
public final class TlsProtocolProbe {
  public static void main(String[] args) throws Exception {
    ServerTls tls =
        ServerTls.start(
            new TlsSettings(
                Path.of(args[0]), Path.of(args[1]), null, null, null, Duration.ofSeconds(60)));
    Server server = new Server();
    ServerConnector connector =
        new ServerConnector(
            server,
            new SslConnectionFactory(tls.contextFactory(), "http/1.1"),
            new HttpConnectionFactory());
    connector.setHost("127.0.0.1");
    server.addConnector(connector);
    server.start();
    try {
      for (int i = 2; i < args.length; i++) {
        System.out.println(args[i] + " " + handshake(connector.getLocalPort(), args[i]));
      }
    } finally {
      server.stop();
      tls.close();
    }
  }

  private static String handshake(int port, String protocol) {
    try {
      SSLContext context = SSLContext.getInstance("TLS");
      // Trust is not what this probe is about: any certificate is accepted.
      context.init(null, new TrustManager[] {new TrustAll()}, null);
      try (SSLSocket socket =
          (SSLSocket) context.getSocketFactory().createSocket("127.0.0.1", port)) {
        socket.setEnabledProtocols(new String[] {protocol});
        socket.setSoTimeout(10_000);
        socket.startHandshake();
        return "OK " + socket.getSession().getProtocol();
      }
    } catch (Exception e) {
      return "REFUSED " + e;
    }
  }

  private static final class TrustAll implements X509TrustManager {
    @Override
    public void checkClientTrusted(java.security.cert.X509Certificate[] chain, String type) {}

    @Override
    public void checkServerTrusted(java.security.cert.X509Certificate[] chain, String type) {}

    @Override
    public java.security.cert.X509Certificate[] getAcceptedIssuers() {
      return new java.security.cert.X509Certificate[0];
    }
  }
}
