package dev.sluice.vending.s3;

import dev.sluice.vending.ClientProperties;
import dev.sluice.vending.CredentialVendor;
import dev.sluice.vending.RequestSigner;
import java.time.Clock;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * Remote signing for every backend that speaks the S3 API (S3 and S3-compatible stores, R2): the
 * config keys that turn it on in Iceberg's S3FileIO, and a signer whose identity the store scopes.
 */
public final class S3Signing {
  private S3Signing() {}

  /**
   * S3FileIO's keys: signing on, where to sign ({@code signEndpoint}, relative to the catalog URI;
   * Iceberg 1.10 reads {@code s3.signer.endpoint}, the spec and later clients {@code
   * signer.endpoint}), and how to reach the store ({@code s3Endpoint} null: AWS's). No key.
   */
  public static Map<String, String> config(
      String signEndpoint, String region, String s3Endpoint, boolean pathStyle) {
    Map<String, String> config = new LinkedHashMap<>();
    config.put(ClientProperties.S3_REMOTE_SIGNING_ENABLED, "true");
    config.put(ClientProperties.S3_SIGNER_ENDPOINT, signEndpoint);
    config.put(ClientProperties.SIGNER_ENDPOINT, signEndpoint);
    config.put(ClientProperties.CLIENT_REGION, region);
    if (s3Endpoint != null) {
      config.put(ClientProperties.S3_ENDPOINT, s3Endpoint);
    }
    config.put(ClientProperties.S3_PATH_STYLE_ACCESS, Boolean.toString(pathStyle));
    return config;
  }

  /**
   * A signer for the S3 API at {@code endpoint} in {@code region}, signing each request with a
   * credential of {@code vendor} for the request's table, dated so that the store refuses it 30 s
   * after it is made (a 15-minute store window). Closes {@code vendor} when closed.
   */
  public static RequestSigner scoped(
      String region, String endpoint, boolean pathStyleOnly, CredentialVendor vendor) {
    return S3RequestSigner.scoped(
        new S3RequestParser(region, endpoint, pathStyleOnly),
        region,
        SignatureWindow.DEFAULT,
        vendor,
        Clock.systemUTC());
  }
}
