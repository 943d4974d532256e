package dev.sluice;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.sluice.testing.TestPki;
import dev.sluice.testing.TestServer;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import javax.net.ssl.SSLContext;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * mTLS for the management API ({@code server.tls.clientAuth.caFile}): without a client certificate
 * from that CA a management request is refused with an Iceberg ErrorResponse, even with a root
 * token; with one it is served; the catalog API needs none.
 */
class ManagementMtlsTest {
  @TempDir static Path dir;
  private static TestPki serverPki;
  private static TestPki adminPki;
  private static TestServer server;
  private static String catalog;

  @BeforeAll
  static void start() throws Exception {
    serverPki = TestPki.create(dir.resolve("server-pki"), "Server CA");
    adminPki = TestPki.create(dir.resolve("admin-pki"), "Admin CA");
    TestPki.Issued certificate = serverPki.server("localhost");
    TestPki.Issued admin = adminPki.client("admin");
    // The test server's own client (catalog creation) holds the admin certificate.
    server =
        TestServer.start(
            null, certificate.serverTlsYaml(adminPki.caPem()), serverPki.clientContext(admin));
    catalog = server.createCatalog("mtls");
  }

  @AfterAll
  static void stop() throws Exception {
    if (server != null) {
      server.close();
    }
  }

  @Test
  void managementWithoutAClientCertificateIsRefused() throws Exception {
    HttpResponse<String> response =
        get(serverPki.clientContext(), "/api/management/v1/catalogs", server.rootToken());
    assertThat(response.statusCode()).isEqualTo(403);
    JsonNode error = TestServer.json(response.body()).get("error");
    assertThat(error.get("code").asInt()).isEqualTo(403);
    assertThat(error.get("type").asText()).isEqualTo("ForbiddenException");
    assertThat(error.get("message").asText()).contains("client certificate");
    // Any spelling that reaches a management route is covered, also an unknown one.
    assertThat(
            get(serverPki.clientContext(), "/api/management/v1/principals/", server.rootToken())
                .statusCode())
        .isEqualTo(403);
  }

  @Test
  void managementWithTheAdminCertificateIsServed() throws Exception {
    HttpResponse<String> response =
        get(
            serverPki.clientContext(adminPki.client("another-admin")),
            "/api/management/v1/catalogs",
            server.rootToken());
    assertThat(response.statusCode()).isEqualTo(200);
    assertThat(response.body()).contains(catalog);
  }

  @Test
  void aCertificateFromAnotherCaIsNotAccepted() throws Exception {
    TestPki stranger = TestPki.create(dir.resolve("stranger-pki"), "Stranger CA");
    SSLContext context = serverPki.clientContext(stranger.client("mallory"));
    int status;
    try {
      status = get(context, "/api/management/v1/catalogs", server.rootToken()).statusCode();
    } catch (IOException e) {
      status = -1; // the handshake refused the certificate
    }
    assertThat(status).isIn(403, -1);
  }

  @Test
  void catalogApiNeedsNoClientCertificate() throws Exception {
    SSLContext noCertificate = serverPki.clientContext();
    assertThat(
            get(noCertificate, "/api/catalog/v1/config?warehouse=" + catalog, server.rootToken())
                .statusCode())
        .isEqualTo(200);
    assertThat(get(noCertificate, "/healthz", null).statusCode()).isEqualTo(200);
  }

  private static HttpResponse<String> get(SSLContext context, String path, String token)
      throws Exception {
    HttpClient client = HttpClient.newBuilder().sslContext(context).build();
    HttpRequest.Builder request = HttpRequest.newBuilder(URI.create(server.baseUrl() + path));
    if (token != null) {
      request.header("Authorization", "Bearer " + token);
    }
    return client.send(request.build(), HttpResponse.BodyHandlers.ofString());
  }
}
