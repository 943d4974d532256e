package dev.sluice;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.sluice.testing.CaFileTlsConfigurer;
import dev.sluice.testing.TestPki;
import dev.sluice.testing.TestServer;
import dev.sluice.testing.TlsProtocolProbe;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.apache.iceberg.DataFile;
import org.apache.iceberg.DataFiles;
import org.apache.iceberg.PartitionSpec;
import org.apache.iceberg.Schema;
import org.apache.iceberg.Table;
import org.apache.iceberg.catalog.Namespace;
import org.apache.iceberg.catalog.TableIdentifier;
import org.apache.iceberg.rest.RESTCatalog;
import org.apache.iceberg.types.Types;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * TLS in the server (issue 21): a CA and a server certificate made with keytool at test time, the
 * server given them as PEM files, and real clients: Iceberg's {@link RESTCatalog} over https with a
 * trust store of that CA, a plaintext client, and old protocols from a JVM that would speak them.
 */
class TlsServerTest {
  @TempDir static Path dir;
  private static TestPki pki;
  private static TestPki.Issued certificate;
  private static TestServer server;

  @BeforeAll
  static void start() throws Exception {
    pki = TestPki.create(dir.resolve("pki"), "Sluice Test CA");
    certificate = pki.server("localhost");
    server = TestServer.start(null, certificate.serverTlsYaml(), pki.clientContext());
  }

  @AfterAll
  static void stop() throws Exception {
    if (server != null) {
      server.close();
    }
  }

  @Test
  void icebergRestCatalogCreatesCommitsAndLoadsOverHttps() throws Exception {
    assertThat(server.catalogUri()).startsWith("https://");
    String catalogName = server.createCatalog("tls");
    Map<String, String> props = new HashMap<>(server.clientProperties(catalogName));
    props.put("rest.client.tls.configurer-impl", CaFileTlsConfigurer.class.getName());
    props.put(CaFileTlsConfigurer.CA_FILE, pki.caPem().toString());
    TableIdentifier id = TableIdentifier.of(Namespace.of("tls_ns"), "events");
    Schema schema = new Schema(Types.NestedField.required(1, "id", Types.LongType.get()));
    try (RESTCatalog catalog = new RESTCatalog()) {
      catalog.initialize("tls", props);
      catalog.createNamespace(Namespace.of("tls_ns"));
      Table table = catalog.createTable(id, schema);
      table.updateProperties().set("transport", "tls").commit();
      DataFile file =
          DataFiles.builder(PartitionSpec.unpartitioned())
              .withPath(table.location() + "/data/part-0.parquet")
              .withFileSizeInBytes(100)
              .withRecordCount(3)
              .build();
      table.newFastAppend().appendFile(file).commit();
    }
    try (RESTCatalog again = new RESTCatalog()) {
      again.initialize("tls-again", props);
      Table loaded = again.loadTable(id);
      assertThat(loaded.properties()).containsEntry("transport", "tls");
      assertThat(loaded.currentSnapshot()).isNotNull();
      assertThat(loaded.currentSnapshot().summary()).containsEntry("added-records", "3");
    }
  }

  @Test
  void icebergClientWithoutTheCaRefusesTheServer() throws Exception {
    String catalogName = server.createCatalog("tls_untrusted");
    try (RESTCatalog catalog = new RESTCatalog()) {
      // The JVM's default trust store does not hold the test CA.
      assertThatThrownBy(
              () -> catalog.initialize("untrusted", server.clientProperties(catalogName)))
          .hasStackTraceContaining("PKIX path building failed");
    }
  }

  @Test
  void plaintextClientIsRefused() throws Exception {
    HttpClient plain = HttpClient.newHttpClient();
    URI http = URI.create("http://127.0.0.1:" + server.server().port() + "/healthz");
    assertThatThrownBy(
            () ->
                plain.send(
                    HttpRequest.newBuilder(http).build(), HttpResponse.BodyHandlers.ofString()))
        .isInstanceOf(IOException.class);
    // The same request over TLS is answered.
    assertThat(server.sendAs(null, "GET", "/healthz", null).statusCode()).isEqualTo(200);
  }

  /**
   * In a JVM whose security policy still allows TLS 1.0 and 1.1, the server's TLS refuses them with
   * a protocol_version alert and speaks 1.2 and 1.3.
   */
  @Test
  void tls11AndOlderAreRefusedEvenWhereTheJdkAllowsThem() throws Exception {
    Path relaxed = dir.resolve("relaxed.java.security");
    Files.writeString(
        relaxed,
        "jdk.tls.disabledAlgorithms=SSLv3, RC4, DES, MD5withRSA, DH keySize < 1024, "
            + "EC keySize < 224, 3DES_EDE_CBC, anon, NULL\n");
    List<String> command =
        new ArrayList<>(
            List.of(
                Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-Djava.security.properties=" + relaxed,
                "-cp",
                System.getProperty("java.class.path"),
                TlsProtocolProbe.class.getName(),
                certificate.certificatePem().toString(),
                certificate.privateKeyPem().toString(),
                "TLSv1",
                "TLSv1.1",
                "TLSv1.2",
                "TLSv1.3"));
    Process process = new ProcessBuilder(command).redirectErrorStream(true).start();
    String output = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    assertThat(process.waitFor(60, TimeUnit.SECONDS)).isTrue();
    assertThat(process.exitValue()).as(output).isZero();
    assertThat(output)
        .contains("TLSv1.2 OK TLSv1.2", "TLSv1.3 OK TLSv1.3")
        .containsPattern("(?m)^TLSv1 REFUSED .*protocol_version")
        .containsPattern("(?m)^TLSv1\\.1 REFUSED .*protocol_version");
  }
}
