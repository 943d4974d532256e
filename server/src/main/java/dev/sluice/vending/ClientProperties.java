package dev.sluice.vending;

import org.apache.iceberg.aws.AwsClientProperties;
import org.apache.iceberg.aws.s3.S3FileIOProperties;
import org.apache.iceberg.aws.s3.signer.S3V4RestSignerClient;
import org.apache.iceberg.azure.AzureProperties;
import org.apache.iceberg.gcp.GCPProperties;

/**
 * The one place that names Iceberg's client properties that vending hands to engines: Iceberg's own
 * constants where it makes them public (S3FileIOProperties, AwsClientProperties, GCPProperties,
 * AzureProperties, S3V4RestSignerClient), literals where it does not. The names are a contract with
 * every Iceberg client, old and new: {@code ClientPropertiesTest} pins them, so that an Iceberg
 * upgrade that renames one fails here instead of breaking older engines.
 */
public final class ClientProperties {
  public static final String S3_ACCESS_KEY_ID = S3FileIOProperties.ACCESS_KEY_ID;
  public static final String S3_SECRET_ACCESS_KEY = S3FileIOProperties.SECRET_ACCESS_KEY;
  public static final String S3_SESSION_TOKEN = S3FileIOProperties.SESSION_TOKEN;
  // Package-private in S3FileIOProperties.
  public static final String S3_SESSION_TOKEN_EXPIRES_AT_MS = "s3.session-token-expires-at-ms";
  public static final String S3_ENDPOINT = S3FileIOProperties.ENDPOINT;
  public static final String S3_PATH_STYLE_ACCESS = S3FileIOProperties.PATH_STYLE_ACCESS;
  public static final String CLIENT_REGION = AwsClientProperties.CLIENT_REGION;
  // SSE-KMS: S3FileIO sends x-amz-server-side-encryption: aws:kms and the key on every PutObject
  // and
  // CreateMultipartUpload when s3.sse.type is kms.
  public static final String S3_SSE_TYPE = S3FileIOProperties.SSE_TYPE;
  public static final String S3_SSE_TYPE_KMS = S3FileIOProperties.SSE_TYPE_KMS;
  public static final String S3_SSE_KEY = S3FileIOProperties.SSE_KEY;
  // s3.access-points.<bucket> = an access point ARN: S3FileIO addresses the bucket through it.
  public static final String S3_ACCESS_POINTS_PREFIX = S3FileIOProperties.ACCESS_POINTS_PREFIX;
  // Remote signing: S3FileIOProperties and S3V4RestSignerClient (1.10 reads s3.signer.*, the spec
  // and later clients signer.*); an endpoint is resolved against the catalog URI.
  public static final String S3_REMOTE_SIGNING_ENABLED = S3FileIOProperties.REMOTE_SIGNING_ENABLED;
  public static final String S3_SIGNER_ENDPOINT = S3V4RestSignerClient.S3_SIGNER_ENDPOINT;
  public static final String SIGNER_ENDPOINT = "signer.endpoint"; // no constant in Iceberg 1.10
  public static final String REFRESH_CREDENTIALS_ENDPOINT =
      AwsClientProperties.REFRESH_CREDENTIALS_ENDPOINT;
  public static final String REFRESH_CREDENTIALS_ENABLED =
      AwsClientProperties.REFRESH_CREDENTIALS_ENABLED;

  // Iceberg's GCPProperties: GCSFileIO reads a token, its expiry (epoch ms) and its own refresh
  // keys.
  public static final String GCS_OAUTH2_TOKEN = GCPProperties.GCS_OAUTH2_TOKEN;
  public static final String GCS_OAUTH2_TOKEN_EXPIRES_AT =
      GCPProperties.GCS_OAUTH2_TOKEN_EXPIRES_AT;
  public static final String GCS_PROJECT_ID = GCPProperties.GCS_PROJECT_ID;
  public static final String GCS_SERVICE_HOST = GCPProperties.GCS_SERVICE_HOST;
  public static final String GCS_REFRESH_CREDENTIALS_ENDPOINT =
      GCPProperties.GCS_OAUTH2_REFRESH_CREDENTIALS_ENDPOINT;
  public static final String GCS_REFRESH_CREDENTIALS_ENABLED =
      GCPProperties.GCS_OAUTH2_REFRESH_CREDENTIALS_ENABLED;

  // Iceberg's AzureProperties: per-account keys end with the location's host
  // (<account>.dfs.core.windows.net); ADLSFileIO reads its own refresh keys.
  public static final String ADLS_SAS_TOKEN_PREFIX = AzureProperties.ADLS_SAS_TOKEN_PREFIX;
  public static final String ADLS_SAS_TOKEN_EXPIRES_AT_MS_PREFIX =
      AzureProperties.ADLS_SAS_TOKEN_EXPIRES_AT_MS_PREFIX;
  public static final String ADLS_CONNECTION_STRING_PREFIX =
      AzureProperties.ADLS_CONNECTION_STRING_PREFIX;
  public static final String ADLS_REFRESH_CREDENTIALS_ENDPOINT =
      AzureProperties.ADLS_REFRESH_CREDENTIALS_ENDPOINT;
  public static final String ADLS_REFRESH_CREDENTIALS_ENABLED =
      AzureProperties.ADLS_REFRESH_CREDENTIALS_ENABLED;

  /**
   * Header an Iceberg client sends to ask for delegated access; its values: {@link
   * Delegation.Kind}.
   */
  public static final String ACCESS_DELEGATION_HEADER = "X-Iceberg-Access-Delegation";

  private ClientProperties() {}
}
