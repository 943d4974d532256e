package dev.sluice;

import static org.assertj.core.api.Assertions.assertThat;

import dev.sluice.testing.TestServer;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * {@code Forwarded} / {@code X-Forwarded-For} are believed only from {@code server.trustedProxies}
 * (here 127.0.0.2): the token endpoint's per-address throttle keys on the forwarded client behind
 * the proxy, and on the TCP peer for anyone else, so a spoofed header neither dodges the throttle
 * nor lets a client prepend an address of its own.
 */
class ForwardedHeadersTest {
  private static final String PROXY = "127.0.0.2";
  private static final String STRANGER = "127.0.0.3";
  private static TestServer server;
  private static int clientIds;

  @BeforeAll
  static void start() throws Exception {
    server =
        TestServer.start(
            null,
            "server:\n  trustedProxies: [\""
                + PROXY
                + "/32\", \"10.0.0.0/8\"]\n"
                + "auth:\n  tokenThrottle:\n    addressBurst: 3\n"
                + "    addressFailuresPerMinute: 1\n    clientBurst: 1000\n");
  }

  @AfterAll
  static void stop() throws Exception {
    if (server != null) {
      server.close();
    }
  }

  @Test
  void behindTheTrustedProxyEachForwardedClientHasItsOwnBudget() throws Exception {
    for (int i = 0; i < 3; i++) {
      assertThat(failedLogin(PROXY, "X-Forwarded-For: 198.51.100.1")).isEqualTo(401);
    }
    assertThat(failedLogin(PROXY, "X-Forwarded-For: 198.51.100.1")).isEqualTo(429);
    // Another client behind the same proxy is not throttled, by either header.
    assertThat(failedLogin(PROXY, "X-Forwarded-For: 198.51.100.2")).isEqualTo(401);
    assertThat(failedLogin(PROXY, "Forwarded: for=198.51.100.3;proto=https")).isEqualTo(401);
    // The throttled client prepending another address gains nothing: the proxy appended the
    // real one, and the walk from the right stops at the first address that is not a proxy.
    assertThat(failedLogin(PROXY, "X-Forwarded-For: 198.51.100.2, 198.51.100.1")).isEqualTo(429);
    assertThat(failedLogin(PROXY, "Forwarded: for=198.51.100.2, for=198.51.100.1")).isEqualTo(429);
    // A chain through another trusted proxy (10.0.0.0/8) reaches the client behind it.
    assertThat(failedLogin(PROXY, "X-Forwarded-For: 198.51.100.4, 10.1.2.3")).isEqualTo(401);
  }

  @Test
  void fromAnyOtherPeerTheHeadersAreIgnored() throws Exception {
    for (int i = 0; i < 3; i++) {
      assertThat(failedLogin(STRANGER, "X-Forwarded-For: 203.0.113." + i)).isEqualTo(401);
    }
    // New forwarded addresses every time, yet the peer's own budget is spent.
    assertThat(failedLogin(STRANGER, "X-Forwarded-For: 203.0.113.50")).isEqualTo(429);
    assertThat(failedLogin(STRANGER, "Forwarded: for=203.0.113.51")).isEqualTo(429);
  }

  /** A token request with a wrong secret for a fresh client id, sent from {@code localAddress}. */
  private static int failedLogin(String localAddress, String header) throws Exception {
    String form =
        "grant_type=client_credentials&client_id=nobody-"
            + (++clientIds)
            + "&client_secret=wrong&scope=PRINCIPAL_ROLE%3AALL";
    try (Socket socket = new Socket()) {
      socket.bind(new InetSocketAddress(localAddress, 0));
      socket.connect(new InetSocketAddress("127.0.0.1", server.server().port()));
      byte[] body = form.getBytes(StandardCharsets.UTF_8);
      OutputStream out = socket.getOutputStream();
      out.write(
          ("POST /api/catalog/v1/oauth/tokens HTTP/1.1\r\nHost: 127.0.0.1\r\n"
                  + header
                  + "\r\nContent-Type: application/x-www-form-urlencoded\r\nContent-Length: "
                  + body.length
                  + "\r\nConnection: close\r\n\r\n")
              .getBytes(StandardCharsets.US_ASCII));
      out.write(body);
      out.flush();
      InputStream in = socket.getInputStream();
      String response = new String(in.readAllBytes(), StandardCharsets.UTF_8);
      return Integer.parseInt(response.substring(9, 12));
    }
  }
}
