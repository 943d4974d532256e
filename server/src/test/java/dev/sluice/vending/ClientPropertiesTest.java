package dev.sluice.vending;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Map;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;

/**
 * The client property names Sluice hands to engines, as Iceberg's clients read them. Most come from
 * Iceberg's own constants; an Iceberg upgrade that renamed one would break the engines still on the
 * old name, so the wire names are pinned here.
 */
class ClientPropertiesTest {
  @Test
  void theWireNamesStayAsIcebergClientsReadThem() {
    Map<String, String> names = new TreeMap<>();
    names.put("S3_ACCESS_KEY_ID", ClientProperties.S3_ACCESS_KEY_ID);
    names.put("S3_SECRET_ACCESS_KEY", ClientProperties.S3_SECRET_ACCESS_KEY);
    names.put("S3_SESSION_TOKEN", ClientProperties.S3_SESSION_TOKEN);
    names.put("S3_SESSION_TOKEN_EXPIRES_AT_MS", ClientProperties.S3_SESSION_TOKEN_EXPIRES_AT_MS);
    names.put("S3_ENDPOINT", ClientProperties.S3_ENDPOINT);
    names.put("S3_PATH_STYLE_ACCESS", ClientProperties.S3_PATH_STYLE_ACCESS);
    names.put("CLIENT_REGION", ClientProperties.CLIENT_REGION);
    names.put("S3_SSE_TYPE", ClientProperties.S3_SSE_TYPE);
    names.put("S3_SSE_TYPE_KMS", ClientProperties.S3_SSE_TYPE_KMS);
    names.put("S3_SSE_KEY", ClientProperties.S3_SSE_KEY);
    names.put("S3_ACCESS_POINTS_PREFIX", ClientProperties.S3_ACCESS_POINTS_PREFIX);
    names.put("S3_REMOTE_SIGNING_ENABLED", ClientProperties.S3_REMOTE_SIGNING_ENABLED);
    names.put("S3_SIGNER_ENDPOINT", ClientProperties.S3_SIGNER_ENDPOINT);
    names.put("SIGNER_ENDPOINT", ClientProperties.SIGNER_ENDPOINT);
    names.put("REFRESH_CREDENTIALS_ENDPOINT", ClientProperties.REFRESH_CREDENTIALS_ENDPOINT);
    names.put("REFRESH_CREDENTIALS_ENABLED", ClientProperties.REFRESH_CREDENTIALS_ENABLED);
    names.put("GCS_OAUTH2_TOKEN", ClientProperties.GCS_OAUTH2_TOKEN);
    names.put("GCS_OAUTH2_TOKEN_EXPIRES_AT", ClientProperties.GCS_OAUTH2_TOKEN_EXPIRES_AT);
    names.put("GCS_PROJECT_ID", ClientProperties.GCS_PROJECT_ID);
    names.put("GCS_SERVICE_HOST", ClientProperties.GCS_SERVICE_HOST);
    names.put(
        "GCS_REFRESH_CREDENTIALS_ENDPOINT", ClientProperties.GCS_REFRESH_CREDENTIALS_ENDPOINT);
    names.put("GCS_REFRESH_CREDENTIALS_ENABLED", ClientProperties.GCS_REFRESH_CREDENTIALS_ENABLED);
    names.put("ADLS_SAS_TOKEN_PREFIX", ClientProperties.ADLS_SAS_TOKEN_PREFIX);
    names.put(
        "ADLS_SAS_TOKEN_EXPIRES_AT_MS_PREFIX",
        ClientProperties.ADLS_SAS_TOKEN_EXPIRES_AT_MS_PREFIX);
    names.put("ADLS_CONNECTION_STRING_PREFIX", ClientProperties.ADLS_CONNECTION_STRING_PREFIX);
    names.put(
        "ADLS_REFRESH_CREDENTIALS_ENDPOINT", ClientProperties.ADLS_REFRESH_CREDENTIALS_ENDPOINT);
    names.put(
        "ADLS_REFRESH_CREDENTIALS_ENABLED", ClientProperties.ADLS_REFRESH_CREDENTIALS_ENABLED);
    names.put("ACCESS_DELEGATION_HEADER", ClientProperties.ACCESS_DELEGATION_HEADER);
    assertThat(names)
        .containsExactlyInAnyOrderEntriesOf(
            Map.ofEntries(
                Map.entry("S3_ACCESS_KEY_ID", "s3.access-key-id"),
                Map.entry("S3_SECRET_ACCESS_KEY", "s3.secret-access-key"),
                Map.entry("S3_SESSION_TOKEN", "s3.session-token"),
                Map.entry("S3_SESSION_TOKEN_EXPIRES_AT_MS", "s3.session-token-expires-at-ms"),
                Map.entry("S3_ENDPOINT", "s3.endpoint"),
                Map.entry("S3_PATH_STYLE_ACCESS", "s3.path-style-access"),
                Map.entry("CLIENT_REGION", "client.region"),
                Map.entry("S3_SSE_TYPE", "s3.sse.type"),
                Map.entry("S3_SSE_TYPE_KMS", "kms"),
                Map.entry("S3_SSE_KEY", "s3.sse.key"),
                Map.entry("S3_ACCESS_POINTS_PREFIX", "s3.access-points."),
                Map.entry("S3_REMOTE_SIGNING_ENABLED", "s3.remote-signing-enabled"),
                Map.entry("S3_SIGNER_ENDPOINT", "s3.signer.endpoint"),
                Map.entry("SIGNER_ENDPOINT", "signer.endpoint"),
                Map.entry("REFRESH_CREDENTIALS_ENDPOINT", "client.refresh-credentials-endpoint"),
                Map.entry("REFRESH_CREDENTIALS_ENABLED", "client.refresh-credentials-enabled"),
                Map.entry("GCS_OAUTH2_TOKEN", "gcs.oauth2.token"),
                Map.entry("GCS_OAUTH2_TOKEN_EXPIRES_AT", "gcs.oauth2.token-expires-at"),
                Map.entry("GCS_PROJECT_ID", "gcs.project-id"),
                Map.entry("GCS_SERVICE_HOST", "gcs.service.host"),
                Map.entry(
                    "GCS_REFRESH_CREDENTIALS_ENDPOINT", "gcs.oauth2.refresh-credentials-endpoint"),
                Map.entry(
                    "GCS_REFRESH_CREDENTIALS_ENABLED", "gcs.oauth2.refresh-credentials-enabled"),
                Map.entry("ADLS_SAS_TOKEN_PREFIX", "adls.sas-token."),
                Map.entry("ADLS_SAS_TOKEN_EXPIRES_AT_MS_PREFIX", "adls.sas-token-expires-at-ms."),
                Map.entry("ADLS_CONNECTION_STRING_PREFIX", "adls.connection-string."),
                Map.entry("ADLS_REFRESH_CREDENTIALS_ENDPOINT", "adls.refresh-credentials-endpoint"),
                Map.entry("ADLS_REFRESH_CREDENTIALS_ENABLED", "adls.refresh-credentials-enabled"),
                Map.entry("ACCESS_DELEGATION_HEADER", "X-Iceberg-Access-Delegation")));
  }
}
