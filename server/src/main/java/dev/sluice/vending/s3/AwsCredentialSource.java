package dev.sluice.vending.s3;

import static java.util.Objects.requireNonNull;

import dev.sluice.client.aws.AwsEnvironment;
import dev.sluice.client.aws.WebIdentityCredentialsProvider;
import dev.sluice.client.aws.WebIdentitySettings;
import dev.sluice.vending.CredentialSource;
import dev.sluice.vending.CredentialSourceType;
import java.net.URI;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.IntConsumer;
import software.amazon.awssdk.auth.credentials.AwsBasicCredentials;
import software.amazon.awssdk.auth.credentials.AwsCredentialsProvider;
import software.amazon.awssdk.auth.credentials.DefaultCredentialsProvider;
import software.amazon.awssdk.auth.credentials.StaticCredentialsProvider;
import software.amazon.awssdk.http.urlconnection.UrlConnectionHttpClient;

/**
 * The catalog's own long-lived AWS identity for S3 and S3-compatible stores, from the server's
 * YAML: static keys (written as ${ENV_VAR}), the AWS default chain, or web identity (IRSA). STS
 * calls and the catalog's own metadata I/O use it.
 *
 * <p>Web identity goes through the client module's throttle-safe provider: one credential per
 * process per role, token file and session name, STS throttling retried with jittered backoff, no
 * fallback to the node's role. The operator chose it explicitly, so it never stands aside for keys
 * or profiles in the environment. Optional keys: {@code maxAttempts} (default 5), {@code
 * minTtlSeconds} (300, at least 120), {@code refreshJitterSeconds} (60), {@code stsEndpoint}.
 *
 * @param webIdentity the web identity settings (null unless {@code kind} is WEB_IDENTITY)
 */
public record AwsCredentialSource(
    String name,
    Kind kind,
    String accessKeyId,
    String secretAccessKey,
    WebIdentitySettings webIdentity)
    implements CredentialSource {
  /** The role session name of the catalog's own web identity (shows in CloudTrail). */
  static final String SESSION_NAME = "sluice-catalog";

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
              Set.of(
                  "roleArn",
                  "webIdentityTokenFile",
                  "maxAttempts",
                  "minTtlSeconds",
                  "refreshJitterSeconds",
                  "stsEndpoint"),
              (name, f) -> of(name, Kind.WEB_IDENTITY, f)));

  public AwsCredentialSource {
    requireNonNull(name, "name");
    requireNonNull(kind, "kind");
    String key = "storage.credentialSources." + name;
    if (kind == Kind.STATIC && (blank(accessKeyId) || blank(secretAccessKey))) {
      throw new IllegalArgumentException(
          key + ": a static source needs accessKeyId and secretAccessKey");
    }
    if ((kind == Kind.WEB_IDENTITY) != (webIdentity != null)) {
      throw new IllegalArgumentException(
          key + ": web identity settings belong to a web-identity source, and only there");
    }
  }

  private static AwsCredentialSource of(String name, Kind kind, Map<String, String> fields) {
    return new AwsCredentialSource(
        name,
        kind,
        fields.get("accessKeyId"),
        fields.get("secretAccessKey"),
        kind == Kind.WEB_IDENTITY ? webIdentitySettings(name, fields) : null);
  }

  /** The web-identity keys, validated; errors name the key and the bad value. */
  static WebIdentitySettings webIdentitySettings(String name, Map<String, String> fields) {
    String key = "storage.credentialSources." + name;
    String roleArn = fields.get("roleArn");
    String tokenFile = fields.get("webIdentityTokenFile");
    if (blank(roleArn) || blank(tokenFile)) {
      throw new IllegalArgumentException(
          key + ": a web-identity source needs roleArn and webIdentityTokenFile");
    }
    WebIdentitySettings.Builder builder =
        WebIdentitySettings.builder().roleArn(roleArn).sessionName(SESSION_NAME);
    try {
      builder.webIdentityTokenFile(Path.of(tokenFile.trim()));
    } catch (IllegalArgumentException e) { // InvalidPathException
      throw new IllegalArgumentException(
          key + ".webIdentityTokenFile must be a file path, got: " + tokenFile, e);
    }
    integer(key, fields, "maxAttempts", builder::maxAttempts);
    integer(key, fields, "minTtlSeconds", builder::minTtlSeconds);
    integer(key, fields, "refreshJitterSeconds", builder::refreshJitterSeconds);
    String endpoint = fields.get("stsEndpoint");
    if (!blank(endpoint)) {
      try {
        builder.stsEndpoint(URI.create(endpoint.trim()));
      } catch (IllegalArgumentException e) {
        throw new IllegalArgumentException(
            key + ".stsEndpoint must be an http(s) URL, got: " + endpoint, e);
      }
    }
    try {
      return builder.build();
    } catch (IllegalArgumentException e) {
      // The settings' messages start with the field, which is the YAML key.
      throw new IllegalArgumentException(key + "." + e.getMessage(), e);
    }
  }

  private static void integer(
      String key, Map<String, String> fields, String field, IntConsumer setter) {
    String value = fields.get(field);
    if (value == null) {
      return;
    }
    try {
      setter.accept(Integer.parseInt(value.trim()));
    } catch (NumberFormatException e) {
      throw new IllegalArgumentException(
          key + "." + field + " must be an integer, got: " + value, e);
    }
  }

  /** A static source (tests, benchmarks). */
  public static AwsCredentialSource staticKeys(String name, String accessKeyId, String secret) {
    return new AwsCredentialSource(name, Kind.STATIC, accessKeyId, secret, null);
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
          WebIdentityCredentialsProvider.create(
              webIdentity,
              AwsEnvironment.system(),
              UrlConnectionHttpClient.builder()
                  .connectionTimeout(Duration.ofSeconds(3))
                  .socketTimeout(Duration.ofSeconds(10)));
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
