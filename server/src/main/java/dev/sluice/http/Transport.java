package dev.sluice.http;

import static java.util.Objects.requireNonNull;

import dev.sluice.tls.ServerTls;
import dev.sluice.tls.TrustedProxies;
import java.security.cert.X509Certificate;
import java.util.List;
import org.apache.iceberg.exceptions.ForbiddenException;
import org.eclipse.jetty.io.EndPoint;
import org.eclipse.jetty.server.Request;

/**
 * How the server is reached: plaintext or TLS ({@code tls} null or not), whether the management API
 * insists on a verified client certificate, whose forwarding headers are believed, and the port
 * that alone serves {@code /metrics} ({@code metricsPort} null: the main port serves it).
 */
public record Transport(ServerTls tls, TrustedProxies trustedProxies, Integer metricsPort) {
  /** Plaintext, no proxies trusted: the loopback default. */
  public static final Transport PLAINTEXT = new Transport(null, TrustedProxies.NONE);

  public Transport {
    requireNonNull(trustedProxies, "trustedProxies");
  }

  /** {@code /metrics} on the main port. */
  public Transport(ServerTls tls, TrustedProxies trustedProxies) {
    this(tls, trustedProxies, null);
  }

  /**
   * Refuses a management request (path {@code /api/management/...}) that came without a client
   * certificate when mTLS is configured. The TLS layer only <em>wants</em> a certificate, so the
   * catalog API works without one; one that was sent has already been verified against {@code
   * server.tls.clientAuth.caFile} by the handshake (an untrusted one fails the handshake).
   */
  void requireClientCertificate(List<String> segments, Request request) {
    if (tls == null || !tls.clientAuth() || !isManagement(segments)) {
      return;
    }
    if (request.getAttribute(EndPoint.SslSessionData.ATTRIBUTE)
        instanceof EndPoint.SslSessionData session) {
      X509Certificate[] chain = session.peerCertificates();
      if (chain != null && chain.length > 0) {
        return;
      }
    }
    throw new ForbiddenException(
        "The management API requires a client certificate issued by the CA in"
            + " server.tls.clientAuth.caFile (mTLS); none was presented");
  }

  /** The same segments the routes match, so no spelling of the path slips past the check. */
  private static boolean isManagement(List<String> segments) {
    return segments.size() >= 2
        && segments.get(0).equals("api")
        && segments.get(1).equals("management");
  }
}
