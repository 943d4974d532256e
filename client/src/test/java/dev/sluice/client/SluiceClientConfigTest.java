package dev.sluice.client;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.net.URI;
import java.util.Map;
import org.junit.jupiter.api.Test;

class SluiceClientConfigTest {

  @Test
  void hadoopKeysOfTheParquetPath() {
    SluiceClientConfig c =
        SluiceClientConfig.fromProperties(
            Map.of(
                "fs.s3a.sluice.uri", "http://sluice:8181/api/catalog/",
                "fs.s3a.sluice.warehouse", "lake",
                "fs.s3a.sluice.credential", "id:se:cret",
                "fs.s3a.access.key", "ignored"));

    assertThat(c.uri()).isEqualTo(URI.create("http://sluice:8181/api/catalog"));
    assertThat(c.warehouse()).isEqualTo("lake");
    assertThat(c.clientId()).isEqualTo("id");
    assertThat(c.clientSecret()).isEqualTo("se:cret");
    assertThat(c.scope()).isEqualTo("PRINCIPAL_ROLE:ALL");
    assertThat(c.tokenEndpoint())
        .isEqualTo(URI.create("http://sluice:8181/api/catalog/v1/oauth/tokens"));
    assertThat(c.toString()).doesNotContain("se:cret");
  }

  @Test
  void catalogPropertiesOfTheIcebergPath() {
    SluiceClientConfig c =
        SluiceClientConfig.fromProperties(
            Map.of(
                "uri", "https://sluice/api/catalog",
                "warehouse", "lake",
                "credential", "id:secret",
                "scope", "PRINCIPAL_ROLE:readers",
                "oauth2-server-uri", "https://idp/token",
                "s3.comet.credential.provider.class", "x"));

    assertThat(c.uri()).isEqualTo(URI.create("https://sluice/api/catalog"));
    assertThat(c.scope()).isEqualTo("PRINCIPAL_ROLE:readers");
    assertThat(c.tokenEndpoint()).isEqualTo(URI.create("https://idp/token"));
  }

  @Test
  void theCatalogsOwnKeysWinOverHadoopKeys() {
    SluiceClientConfig c =
        SluiceClientConfig.fromProperties(
            Map.of(
                "fs.s3a.sluice.uri", "http://a/api/catalog",
                "uri", "http://b/api/catalog",
                "credential", "id:secret"));

    assertThat(c.uri().getHost()).isEqualTo("b");
  }

  @Test
  void aTokenInsteadOfAClientCredential() {
    SluiceClientConfig c =
        SluiceClientConfig.fromProperties(Map.of("uri", "http://a/api/catalog", "token", "t0k"));

    assertThat(c.token()).isEqualTo("t0k");
    assertThat(c.clientSecret()).isNull();
    assertThat(c.toString()).doesNotContain("t0k");
  }

  @Test
  void errorsNameTheKeysNeverTheValues() {
    assertThatThrownBy(() -> SluiceClientConfig.fromProperties(Map.of("credential", "id:hush")))
        .hasMessageContaining("fs.s3a.sluice.uri")
        .hasMessageNotContaining("hush");
    assertThatThrownBy(
            () ->
                SluiceClientConfig.fromProperties(
                    Map.of("uri", "http://a", "credential", "no-colon-hush")))
        .hasMessageContaining("<clientId>:<secret>")
        .hasMessageNotContaining("hush");
    assertThatThrownBy(() -> SluiceClientConfig.fromProperties(Map.of("uri", "http://a")))
        .hasMessageContaining("no Sluice credential");
    assertThatThrownBy(
            () -> SluiceClientConfig.fromProperties(Map.of("uri", "ftp://a", "credential", "a:b")))
        .hasMessageContaining("http(s)");
  }
}
