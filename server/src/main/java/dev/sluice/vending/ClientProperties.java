package dev.sluice.vending;

/**
 * The one place that names Iceberg's client properties that vending hands to engines. The names are
 * Iceberg's (S3FileIOProperties, AwsClientProperties, GCPProperties, AzureProperties, ...) and are
 * a contract with every Iceberg client: never rename them.
 */
public final class ClientProperties {
  public static final String S3_ACCESS_KEY_ID = "s3.access-key-id";
  public static final String S3_SECRET_ACCESS_KEY = "s3.secret-access-key";
  public static final String S3_SESSION_TOKEN = "s3.session-token";
  public static final String S3_SESSION_TOKEN_EXPIRES_AT_MS = "s3.session-token-expires-at-ms";
  public static final String S3_ENDPOINT = "s3.endpoint";
  public static final String S3_PATH_STYLE_ACCESS = "s3.path-style-access";
  public static final String CLIENT_REGION = "client.region";
  // Remote signing: S3FileIOProperties and S3V4RestSignerClient (1.10 reads s3.signer.*, the spec
  // and later clients signer.*); an endpoint is resolved against the catalog URI.
  public static final String S3_REMOTE_SIGNING_ENABLED = "s3.remote-signing-enabled";
  public static final String S3_SIGNER_ENDPOINT = "s3.signer.endpoint";
  public static final String SIGNER_ENDPOINT = "signer.endpoint";
  public static final String REFRESH_CREDENTIALS_ENDPOINT = "client.refresh-credentials-endpoint";
  public static final String REFRESH_CREDENTIALS_ENABLED = "client.refresh-credentials-enabled";

  // Iceberg's GCPProperties: GCSFileIO reads a token, its expiry (epoch ms) and its own refresh
  // keys.
  public static final String GCS_OAUTH2_TOKEN = "gcs.oauth2.token";
  public static final String GCS_OAUTH2_TOKEN_EXPIRES_AT = "gcs.oauth2.token-expires-at";
  public static final String GCS_PROJECT_ID = "gcs.project-id";
  public static final String GCS_SERVICE_HOST = "gcs.service.host";
  public static final String GCS_REFRESH_CREDENTIALS_ENDPOINT =
      "gcs.oauth2.refresh-credentials-endpoint";
  public static final String GCS_REFRESH_CREDENTIALS_ENABLED =
      "gcs.oauth2.refresh-credentials-enabled";

  // Iceberg's AzureProperties: per-account keys end with the location's host
  // (<account>.dfs.core.windows.net); ADLSFileIO reads its own refresh keys.
  public static final String ADLS_SAS_TOKEN_PREFIX = "adls.sas-token.";
  public static final String ADLS_SAS_TOKEN_EXPIRES_AT_MS_PREFIX = "adls.sas-token-expires-at-ms.";
  public static final String ADLS_CONNECTION_STRING_PREFIX = "adls.connection-string.";
  public static final String ADLS_REFRESH_CREDENTIALS_ENDPOINT =
      "adls.refresh-credentials-endpoint";
  public static final String ADLS_REFRESH_CREDENTIALS_ENABLED = "adls.refresh-credentials-enabled";

  /**
   * Header an Iceberg client sends to ask for delegated access; its values: {@link
   * Delegation.Kind}.
   */
  public static final String ACCESS_DELEGATION_HEADER = "X-Iceberg-Access-Delegation";

  private ClientProperties() {}
}
