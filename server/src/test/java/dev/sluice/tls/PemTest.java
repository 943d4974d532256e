package dev.sluice.tls;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.charset.StandardCharsets;
import java.security.KeyPair;
import java.security.KeyPairGenerator;
import java.util.Arrays;
import java.util.Base64;
import org.junit.jupiter.api.Test;

/** Private keys in the PEM forms the server accepts, and the ones it refuses with a fix. */
class PemTest {
  private static String pem(String type, byte[] der) {
    return "-----BEGIN "
        + type
        + "-----\n"
        + Base64.getMimeEncoder().encodeToString(der)
        + "\n-----END "
        + type
        + "-----\n";
  }

  @Test
  void anRsaKeyInPkcs1IsReadAsTheSameKey() throws Exception {
    KeyPairGenerator generator = KeyPairGenerator.getInstance("RSA");
    generator.initialize(2048);
    KeyPair pair = generator.generateKeyPair();
    byte[] pkcs8 = pair.getPrivate().getEncoded();
    // The JDK's PKCS#8 of a 2048-bit RSA key: 26 bytes of wrapper around the PKCS#1 key.
    byte[] pkcs1 = Arrays.copyOfRange(pkcs8, 26, pkcs8.length);
    assertThat(pkcs1[0]).isEqualTo((byte) 0x30);
    assertThat(Pem.rsaPkcs1ToPkcs8(pkcs1)).isEqualTo(pkcs8);
    assertThat(
            Pem.privateKey(
                pem("RSA PRIVATE KEY", pkcs1).getBytes(StandardCharsets.US_ASCII), "key"))
        .isEqualTo(pair.getPrivate());
    assertThat(Pem.privateKey(pem("PRIVATE KEY", pkcs8).getBytes(StandardCharsets.US_ASCII), "k"))
        .isEqualTo(pair.getPrivate());
  }

  @Test
  void encryptedAndSec1KeysAreRefusedWithTheConversion() {
    assertThatThrownBy(
            () ->
                Pem.privateKey(
                    pem("ENCRYPTED PRIVATE KEY", new byte[] {1, 2, 3})
                        .getBytes(StandardCharsets.US_ASCII),
                    "server.tls.privateKey"))
        .hasMessageContaining("server.tls.privateKey")
        .hasMessageContaining("openssl pkcs8 -topk8 -nocrypt");
    assertThatThrownBy(
            () ->
                Pem.privateKey(
                    pem("EC PRIVATE KEY", new byte[] {1}).getBytes(StandardCharsets.US_ASCII),
                    "server.tls.privateKey"))
        .hasMessageContaining("openssl pkcs8");
    assertThatThrownBy(
            () ->
                Pem.certificates(
                    "nothing".getBytes(StandardCharsets.US_ASCII), "server.tls.certificate"))
        .hasMessageContaining("server.tls.certificate");
  }

  @Test
  void trustedProxiesAreLiteralsOnly() {
    assertThat(TrustedProxies.literal("999.1.1.1")).isNull();
    assertThat(TrustedProxies.literal("cafe.be")).isNull();
    assertThat(TrustedProxies.literal("dead::beef::1")).isNull();
    assertThatThrownBy(
            () ->
                TrustedProxies.parse(
                    java.util.List.of("proxy.example.com"), "server.trustedProxies"))
        .hasMessageContaining("server.trustedProxies");
    assertThatThrownBy(
            () -> TrustedProxies.parse(java.util.List.of("10.0.0.0/33"), "server.trustedProxies"))
        .hasMessageContaining("10.0.0.0/33");
  }
}
