package dev.sluice.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.sluice.testing.TestPki;
import dev.sluice.testing.TestServer;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The admin CLI against a real server with TLS and mTLS on the management API: {@code https://}
 * with {@code --ca-file}, and {@code --client-cert} / {@code --client-key}.
 */
class CliTlsTest {
  @TempDir static Path dir;
  private static TestPki serverPki;
  private static TestPki.Issued admin;
  private static TestServer server;
  private static String catalog;

  @BeforeAll
  static void start() throws Exception {
    serverPki = TestPki.create(dir.resolve("server-pki"), "CLI Server CA");
    TestPki adminPki = TestPki.create(dir.resolve("admin-pki"), "CLI Admin CA");
    TestPki.Issued certificate = serverPki.server("localhost");
    admin = adminPki.client("admin");
    server =
        TestServer.start(
            null, certificate.serverTlsYaml(adminPki.caPem()), serverPki.clientContext(admin));
    catalog = server.createCatalog("cli_tls");
  }

  @AfterAll
  static void stop() throws Exception {
    if (server != null) {
      server.close();
    }
  }

  private static Cli.Result catalogsList(String... tlsOptions) {
    List<String> args =
        new ArrayList<>(
            List.of(
                "catalogs",
                "list",
                "--base-url",
                server.baseUrl(),
                "--client-id",
                TestServer.CLIENT_ID,
                "--client-secret",
                TestServer.SECRET));
    args.addAll(List.of(tlsOptions));
    return Cli.raw(args.toArray(String[]::new));
  }

  @Test
  void withTheCaAndTheClientCertificateTheCommandWorks() {
    Cli.Result result =
        catalogsList(
            "--ca-file",
            serverPki.caPem().toString(),
            "--client-cert",
            admin.certificatePem().toString(),
            "--client-key",
            admin.privateKeyPem().toString());
    assertThat(result.err()).isEmpty();
    assertThat(result.exit()).isZero();
    assertThat(result.out()).contains(catalog);
  }

  @Test
  void withoutTheCaTheServerIsNotTrusted() {
    Cli.Result result =
        catalogsList(
            "--client-cert",
            admin.certificatePem().toString(),
            "--client-key",
            admin.privateKeyPem().toString());
    assertThat(result.exit()).isEqualTo(1);
    assertThat(result.err())
        .contains("cannot reach")
        .contains("PKIX")
        .contains("pass --ca-file with the CA that signed it");
  }

  @Test
  void withoutTheClientCertificateTheManagementApiRefuses() {
    Cli.Result result = catalogsList("--ca-file", serverPki.caPem().toString());
    assertThat(result.exit()).isEqualTo(1);
    assertThat(result.err()).contains("client certificate");
  }

  @Test
  void tlsOptionsNeedAnHttpsUrl() {
    Cli.Result result =
        Cli.raw(
            "catalogs",
            "list",
            "--base-url",
            "http://127.0.0.1:1",
            "--client-id",
            "x",
            "--client-secret",
            "y",
            "--ca-file",
            serverPki.caPem().toString());
    assertThat(result.exit()).isEqualTo(2);
    assertThat(result.err()).contains("need an https:// --base-url");
  }
}
