package dev.sluice.vending;

/**
 * The one place that names Iceberg's client properties that vending hands to engines. The names are
 * Iceberg's (S3FileIOProperties, AwsClientProperties, ...) and are a contract with every Iceberg
 * client: never rename them.
 */
public final class ClientProperties {
  public static final String S3_ACCESS_KEY_ID = "s3.access-key-id";
  public static final String S3_SECRET_ACCESS_KEY = "s3.secret-access-key";
  public static final String S3_SESSION_TOKEN = "s3.session-token";
  public static final String S3_SESSION_TOKEN_EXPIRES_AT_MS = "s3.session-token-expires-at-ms";
  public static final String S3_ENDPOINT = "s3.endpoint";
  public static final String S3_PATH_STYLE_ACCESS = "s3.path-style-access";
  public static final String CLIENT_REGION = "client.region";
  public static final String REFRESH_CREDENTIALS_ENDPOINT = "client.refresh-credentials-endpoint";
  public static final String REFRESH_CREDENTIALS_ENABLED = "client.refresh-credentials-enabled";

  /**
   * Header an Iceberg client sends to ask for delegated access; its values: {@link
   * Delegation.Kind}.
   */
  public static final String ACCESS_DELEGATION_HEADER = "X-Iceberg-Access-Delegation";

  private ClientProperties() {}
}
