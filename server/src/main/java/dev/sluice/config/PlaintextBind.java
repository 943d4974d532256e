package dev.sluice.config;

import java.net.InetAddress;
import java.net.UnknownHostException;

/**
 * The rule that plaintext HTTP is served only on loopback unless the operator says a
 * TLS-terminating proxy is in front ({@code server.allowPlaintext}).
 */
final class PlaintextBind {
  private PlaintextBind() {}

  /**
   * Refuses plaintext off loopback: bearer tokens, client secrets and vended storage credentials
   * would cross the network readable by anyone on the path.
   */
  static void requireSafeBind(String host, boolean tls, boolean allowPlaintext) {
    if (tls || allowPlaintext || isLoopback(host)) {
      return;
    }
    throw new ConfigException(
        "server.host is "
            + host
            + ", which is not a loopback address, and server.tls is not configured: Sluice"
            + " refuses to serve plaintext HTTP off this machine, since its answers carry bearer"
            + " tokens and storage credentials. Either configure server.tls (certificate +"
            + " privateKey, or keyStore + keyStorePassword), or, behind a proxy that terminates"
            + " TLS, set server.allowPlaintext: true (see docs/DEPLOYMENT.md, TLS)");
  }

  static boolean isLoopback(String host) {
    try {
      InetAddress[] all = InetAddress.getAllByName(host);
      for (InetAddress address : all) {
        if (!address.isLoopbackAddress()) {
          return false;
        }
      }
      return all.length > 0;
    } catch (UnknownHostException e) {
      return false;
    }
  }
}
