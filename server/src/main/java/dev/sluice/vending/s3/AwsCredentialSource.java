package dev.sluice.vending.s3;

import static java.util.Objects.requireNonNull;

import dev.sluice.vending.CredentialSource;
import dev.sluice.vending.CredentialSourceType;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Set;
import software.amazon.awssdk.auth.credentials.AwsBasicCredentials;
import software.amazon.awssdk.auth.credentials.AwsCredentialsProvider;
import software.amazon.awssdk.auth.credentials.DefaultCredentialsProvider;
import software.amazon.awssdk.auth.credentials.StaticCredentialsProvider;
import software.amazon.awssdk.services.sts.auth.StsWebIdentityTokenFileCredentialsProvider;

/**
 * The catalog's own long-lived AWS identity for S3 and S3-compatible stores, from the server's
 * YAML: static keys (written as ${ENV_VAR}), the AWS default chain, or web identity (IRSA). STS
 * calls and the catalog's own metadata I/O use it.
 */
public record AwsCredentialSource(
    String name,
    Kind kind,
    String accessKeyId,
    String secretAccessKey,
    String roleArn,
    String webIdentityTokenFile)
    implements CredentialSource {
  /** The YAML {@code type}s of an AWS source. */
  public enum Kind {
    STATIC("static"),
    DEFAULT_CHAIN("default-chain"),
    WEB_IDENTITY("web-identity");

    private final String type;

    Kind(String type) {
      this.type = type;
    }
  }

  /** A static key pair: also the parent API key of R2, which speaks the S3 API. */
  public static final CredentialSourceType STATIC_TYPE =
      new CredentialSourceType(
          Kind.STATIC.type,
          Set.of("accessKeyId", "secretAccessKey"),
          (name, f) -> of(name, Kind.STATIC, f));

  /** The source types the S3 backend accepts, with the keys each may carry. */
  static final List<CredentialSourceType> TYPES =
      List.of(
          STATIC_TYPE,
          new CredentialSourceType(
              Kind.DEFAULT_CHAIN.type, Set.of(), (name, f) -> of(name, Kind.DEFAULT_CHAIN, f)),
          new CredentialSourceType(
              Kind.WEB_IDENTITY.type,
              Set.of("roleArn", "webIdentityTokenFile"),
              (name, f) -> of(name, Kind.WEB_IDENTITY, f)));

  public AwsCredentialSource {
    requireNonNull(name, "name");
    requireNonNull(kind, "kind");
    String key = "storage.credentialSources." + name;
    if (kind == Kind.STATIC && (blank(accessKeyId) || blank(secretAccessKey))) {
      throw new IllegalArgumentException(
          key + ": a static source needs accessKeyId and secretAccessKey");
    }
    if (kind == Kind.WEB_IDENTITY && (blank(roleArn) || blank(webIdentityTokenFile))) {
      throw new IllegalArgumentException(
          key + ": a web-identity source needs roleArn and webIdentityTokenFile");
    }
  }

  private static AwsCredentialSource of(String name, Kind kind, Map<String, String> fields) {
    return new AwsCredentialSource(
        name,
        kind,
        fields.get("accessKeyId"),
        fields.get("secretAccessKey"),
        fields.get("roleArn"),
        fields.get("webIdentityTokenFile"));
  }

  /** A static source (tests, benchmarks). */
  public static AwsCredentialSource staticKeys(String name, String accessKeyId, String secret) {
    return new AwsCredentialSource(name, Kind.STATIC, accessKeyId, secret, null, null);
  }

  @Override
  public String type() {
    return kind.type;
  }

  public AwsCredentialsProvider provider() {
    return switch (kind) {
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
    return "AwsCredentialSource[name=" + name + ", type=" + type() + "]";
  }
}
