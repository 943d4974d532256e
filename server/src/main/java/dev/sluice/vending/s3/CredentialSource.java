package dev.sluice.vending.s3;

import static java.util.Objects.requireNonNull;

import java.nio.file.Path;
import java.util.Locale;
import software.amazon.awssdk.auth.credentials.AwsBasicCredentials;
import software.amazon.awssdk.auth.credentials.AwsCredentialsProvider;
import software.amazon.awssdk.auth.credentials.DefaultCredentialsProvider;
import software.amazon.awssdk.auth.credentials.StaticCredentialsProvider;
import software.amazon.awssdk.services.sts.auth.StsWebIdentityTokenFileCredentialsProvider;

/**
 * The catalog's own long-lived identity for one S3 backend, defined in the server's YAML (never in
 * the database, never in an API response): static keys (written as ${ENV_VAR}), the AWS default
 * chain, or web identity (IRSA). Catalogs name a source; STS calls and the catalog's own metadata
 * I/O use it.
 */
public record CredentialSource(
    String name,
    Type type,
    String accessKeyId,
    String secretAccessKey,
    String roleArn,
    String webIdentityTokenFile) {
  public enum Type {
    STATIC,
    DEFAULT_CHAIN,
    WEB_IDENTITY;

    static Type parse(String value, String key) {
      try {
        return valueOf(value.trim().toUpperCase(Locale.ROOT).replace('-', '_'));
      } catch (RuntimeException e) {
        throw new IllegalArgumentException(
            key + " must be static, default-chain or web-identity, got: " + value);
      }
    }
  }

  public CredentialSource {
    requireNonNull(name, "name");
    requireNonNull(type, "type");
    String key = "storage.credentialSources." + name;
    if (type == Type.STATIC && (blank(accessKeyId) || blank(secretAccessKey))) {
      throw new IllegalArgumentException(
          key + ": a static source needs accessKeyId and secretAccessKey");
    }
    if (type == Type.WEB_IDENTITY && (blank(roleArn) || blank(webIdentityTokenFile))) {
      throw new IllegalArgumentException(
          key + ": a web-identity source needs roleArn and webIdentityTokenFile");
    }
  }

  public static CredentialSource of(
      String name,
      String type,
      String accessKeyId,
      String secretAccessKey,
      String roleArn,
      String webIdentityTokenFile) {
    return new CredentialSource(
        name,
        Type.parse(type == null ? "" : type, "storage.credentialSources." + name + ".type"),
        accessKeyId,
        secretAccessKey,
        roleArn,
        webIdentityTokenFile);
  }

  public AwsCredentialsProvider provider() {
    return switch (type) {
      case STATIC ->
          StaticCredentialsProvider.create(
              AwsBasicCredentials.create(accessKeyId, secretAccessKey));
      case DEFAULT_CHAIN -> DefaultCredentialsProvider.builder().build();
      case WEB_IDENTITY ->
          StsWebIdentityTokenFileCredentialsProvider.builder()
              .roleArn(roleArn)
              .webIdentityTokenFile(Path.of(webIdentityTokenFile))
              .roleSessionName("sluice-catalog")
              .build();
    };
  }

  private static boolean blank(String s) {
    return s == null || s.isBlank();
  }

  @Override
  public String toString() {
    return "CredentialSource[name=" + name + ", type=" + type + "]";
  }
}
