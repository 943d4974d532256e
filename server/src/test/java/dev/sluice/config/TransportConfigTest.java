package dev.sluice.config;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.sluice.StandardBackends;
import dev.sluice.testing.TestPki;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code server.tls}, {@code allowPlaintext} and {@code trustedProxies}: errors name the key. */
class TransportConfigTest {
  @TempDir Path dir;

  private ServerConfig load(String yaml, Map<String, String> env) throws Exception {
    Path file = Files.writeString(dir.resolve("c.yaml"), yaml);
    return ServerConfig.load(
        file, ServerConfig.Overrides.NONE, env::get, StandardBackends.create());
  }

  @Test
  void errorsNameTheTlsKey() throws Exception {
    assertThatThrownBy(() -> load("server:\n  tls:\n    certifcate: /x\n", Map.of()))
        .hasMessageContaining("server.tls.certifcate");
    assertThatThrownBy(() -> load("server:\n  tls:\n    certificate: /x\n", Map.of()))
        .hasMessageContaining("server.tls.privateKey");
    assertThatThrownBy(
            () ->
                load(
                    "server:\n  tls:\n    certificate: /nope.pem\n    privateKey: /nope.key\n",
                    Map.of()))
        .hasMessageContaining("server.tls.certificate")
        .hasMessageContaining("/nope.pem");
    assertThatThrownBy(
            () -> load("server:\n  tls:\n    keyStore: /x.p12\n    certificate: /x\n", Map.of()))
        .hasMessageContaining("not both");
    assertThatThrownBy(() -> load("server:\n  tls: {}\n", Map.of()))
        .hasMessageContaining("neither");
    assertThatThrownBy(() -> load("server:\n  trustedProxies: [proxy.internal]\n", Map.of()))
        .hasMessageContaining("server.trustedProxies");
    assertThatThrownBy(() -> load("server:\n  allowPlaintext: yes please\n", Map.of()))
        .hasMessageContaining("server.allowPlaintext");
  }

  @Test
  void aKeyOfAnotherCertificateAndAWrongPasswordAreRefusedAtBoot() throws Exception {
    TestPki pki = TestPki.create(dir.resolve("pki"), "Config CA");
    TestPki.Issued one = pki.server("one");
    TestPki.Issued two = pki.server("two");
    assertThatThrownBy(
            () ->
                load(
                    "server:\n  tls:\n    certificate: \""
                        + one.certificatePem()
                        + "\"\n    privateKey: \""
                        + two.privateKeyPem()
                        + "\"\n",
                    Map.of()))
        .hasMessageContaining("server.tls.privateKey does not belong to server.tls.certificate");
    assertThatThrownBy(
            () ->
                load(
                    "server:\n  tls:\n    keyStore: \""
                        + one.pkcs12()
                        + "\"\n    keyStorePassword: wrong\n",
                    Map.of()))
        .hasMessageContaining("server.tls.keyStorePassword");
    // The password from the environment, and TLS makes a non-loopback host acceptable.
    ServerConfig config =
        load(
            "server:\n  host: 0.0.0.0\n  tls:\n    keyStore: \""
                + one.pkcs12()
                + "\"\n    keyStorePassword: \"${TLS_PASSWORD}\"\n",
            Map.of("TLS_PASSWORD", TestPki.PASSWORD));
    assertThat(config.server().tls().keyStore()).isEqualTo(one.pkcs12());
    assertThat(config.server().tls().toString()).doesNotContain(TestPki.PASSWORD);
  }
}
