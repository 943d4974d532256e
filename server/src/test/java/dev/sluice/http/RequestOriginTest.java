package dev.sluice.http;

import static org.assertj.core.api.Assertions.assertThat;

import dev.sluice.tls.TrustedProxies;
import java.net.InetAddress;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The scheme, host and client of a request: forwarded values only from trusted proxies. */
class RequestOriginTest {
  private static final TrustedProxies PROXIES =
      TrustedProxies.parse(List.of("10.0.0.0/8", "fd00::/8"), "server.trustedProxies");

  private static RequestOrigin resolve(boolean secure, String peer, Map<String, String> headers)
      throws Exception {
    return RequestOrigin.resolve(
        secure, "sluice.internal:8181", InetAddress.getByName(peer), headers::get, PROXIES);
  }

  @Test
  void fromATrustedProxyTheForwardedSchemeAndHostMakeTheBaseUrl() throws Exception {
    RequestOrigin origin =
        resolve(
            false,
            "10.0.0.5",
            Map.of("Forwarded", "for=198.51.100.9;proto=https;host=catalog.example.com"));
    assertThat(origin.baseUrl()).isEqualTo("https://catalog.example.com");
    assertThat(origin.clientAddress()).isEqualTo(InetAddress.getByName("198.51.100.9"));

    RequestOrigin legacy =
        resolve(
            false,
            "fd00::1",
            Map.of(
                "X-Forwarded-Proto", "https",
                "X-Forwarded-Host", "catalog.example.com",
                "X-Forwarded-For", "198.51.100.9"));
    assertThat(legacy.baseUrl()).isEqualTo("https://catalog.example.com");
  }

  @Test
  void fromAnyOtherPeerTheConnectionDecides() throws Exception {
    Map<String, String> spoofed =
        Map.of(
            "Forwarded", "for=198.51.100.9;proto=https;host=evil.example",
            "X-Forwarded-Proto", "https",
            "X-Forwarded-Host", "evil.example");
    RequestOrigin plain = resolve(false, "192.0.2.1", spoofed);
    assertThat(plain.baseUrl()).isEqualTo("http://sluice.internal:8181");
    assertThat(plain.clientAddress()).isEqualTo(InetAddress.getByName("192.0.2.1"));
    assertThat(resolve(true, "192.0.2.1", Map.of()).baseUrl())
        .isEqualTo("https://sluice.internal:8181");
  }

  @Test
  void oddValuesAreIgnoredAndNamesNeverResolved() throws Exception {
    RequestOrigin origin =
        resolve(
            true,
            "10.0.0.5",
            Map.of("Forwarded", "for=\"_hidden\";proto=gopher;host=\"bad host/<x>\""));
    assertThat(origin.baseUrl()).isEqualTo("https://sluice.internal:8181");
    assertThat(origin.clientAddress()).isEqualTo(InetAddress.getByName("10.0.0.5"));
    assertThat(RequestOrigin.literal("localhost")).isNull();
    assertThat(RequestOrigin.literal("dead.beef")).isNull();
    assertThat(RequestOrigin.literal("[2001:db8::1]:443"))
        .isEqualTo(InetAddress.getByName("2001:db8::1"));
    assertThat(RequestOrigin.literal("192.0.2.7:8080"))
        .isEqualTo(InetAddress.getByName("192.0.2.7"));
  }

  @Test
  void aHostIsOneTo255CharactersOfAUrlsHostAndPort() {
    assertThat(RequestOrigin.plausibleHost("catalog.example.com:8181")).isTrue();
    assertThat(RequestOrigin.plausibleHost("[2001:db8::1]:443")).isTrue();
    assertThat(RequestOrigin.plausibleHost("a".repeat(255))).isTrue();
    assertThat(RequestOrigin.plausibleHost("a".repeat(256))).isFalse();
    assertThat(RequestOrigin.plausibleHost("")).isFalse();
    assertThat(RequestOrigin.plausibleHost(null)).isFalse();
    for (String bad : new String[] {"bad host", "evil/x", "a@b", "h\r\nx", "h_x", "é.example"}) {
      assertThat(RequestOrigin.plausibleHost(bad)).as(bad).isFalse();
    }
  }
}
