package dev.sluice;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.sluice.testing.Admin;
import dev.sluice.testing.CredentialSourcesYaml;
import dev.sluice.testing.TestServer;
import java.net.http.HttpResponse;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;

/**
 * A refused credentials request names the privilege that would help: where the catalog vends, that
 * is TABLE_READ_DATA (what an engine or the Comet bridge needs to read), not TABLE_READ_PROPERTIES;
 * a catalog that vends nothing still names TABLE_READ_PROPERTIES. A refused load there names both:
 * TABLE_READ_PROPERTIES loads the table, TABLE_READ_DATA reads its files. Refused before anything
 * is loaded or vended, so no store is reached.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class CredentialsRefusalHintTest {
  private TestServer server;
  private String stranger;
  private String files;

  @BeforeAll
  void start() throws Exception {
    server =
        TestServer.start(
            null,
            CredentialSourcesYaml.s3Static("static1", "AKIDEXAMPLE", "not-a-real-secret").toYaml());
    Map<String, Object> storage = new HashMap<>();
    storage.put("storageType", "S3");
    storage.put("allowedLocations", List.of("s3://bkt/vending"));
    storage.put("region", "us-east-1");
    storage.put("endpoint", "http://127.0.0.1:9");
    storage.put("credentialSource", "static1");
    storage.put("roleArn", "arn:aws:iam::123456789012:role/TableAccess");
    HttpResponse<String> created = server.postCatalog("vending", "s3://bkt/vending", storage);
    assertThat(created.statusCode()).as(created.body()).isEqualTo(201);
    files = server.createCatalog("files");
    Admin admin = new Admin(server);
    String[] p = admin.principal("stranger", "strangers");
    // Standing in both catalogs (a namespace of its own), nothing on ns.t.
    for (String catalog : List.of("vending", files)) {
      admin.catalogRole(catalog, "elsewhere", "strangers");
      admin.grant(
          catalog,
          "elsewhere",
          Admin.grantJson("namespace", List.of("other"), null, "TABLE_READ_DATA"));
    }
    stranger = server.token(p[0], p[1]);
  }

  @AfterAll
  void stop() throws Exception {
    server.close();
  }

  private String refusal(String catalog) throws Exception {
    return refusal(catalog, "/credentials");
  }

  /** The 403's message for {@code GET …/ns/tables/t<suffix>} in {@code catalog}. */
  private String refusal(String catalog, String suffix) throws Exception {
    HttpResponse<String> answer =
        server.sendAs(
            stranger,
            "GET",
            "/api/catalog/v1/" + catalog + "/namespaces/ns/tables/t" + suffix,
            null);
    assertThat(answer.statusCode()).as(answer.body()).isEqualTo(403);
    JsonNode error = TestServer.json(answer.body()).get("error");
    assertThat(error.get("type").asText()).isEqualTo("ForbiddenException");
    return error.get("message").asText();
  }

  @Test
  void aVendingCatalogNamesTableReadData() throws Exception {
    assertThat(refusal("vending"))
        .contains("loadCredentials", "needs TABLE_READ_DATA")
        .doesNotContain("TABLE_READ_PROPERTIES");
  }

  @Test
  void aCatalogThatVendsNothingNamesTableReadProperties() throws Exception {
    assertThat(refusal(files)).contains("loadCredentials", "needs TABLE_READ_PROPERTIES");
  }

  @Test
  void aRefusedLoadInAVendingCatalogAlsoNamesWhatReadingTheDataNeeds() throws Exception {
    assertThat(refusal("vending", ""))
        .endsWith(
            "is not authorized for loadTable on table ns.t in catalog vending (needs"
                + " TABLE_READ_PROPERTIES; reading its data needs TABLE_READ_DATA)");
  }

  @Test
  void aRefusedLoadInACatalogThatVendsNothingNamesTableReadPropertiesAlone() throws Exception {
    assertThat(refusal(files, ""))
        .endsWith(
            "is not authorized for loadTable on table ns.t in catalog "
                + files
                + " (needs TABLE_READ_PROPERTIES)");
  }
}
