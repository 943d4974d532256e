package dev.sluice.testing;

import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The server's {@code storage:} section for a test server ({@link TestServer#start(String,
 * String)}): named credential sources of each type, and the shortest credential lifetime a vend may
 * ask for. Values are written as YAML double-quoted strings, so a key file path, a secret or a
 * {@code ${VAR}} reference goes in as it is:
 *
 * <pre>{@code
 * CredentialSourcesYaml.s3Static("rgw", "${SLUICE_TEST_RGW_ACCESS_KEY}", "${...}")
 *     .vendingMinDurationSeconds(1)
 *     .toYaml()
 * }</pre>
 */
public final class CredentialSourcesYaml {
  private final Map<String, Map<String, String>> sources = new LinkedHashMap<>();
  private Integer vendingMinDurationSeconds;

  private CredentialSourcesYaml() {}

  /** No source yet. */
  public static CredentialSourcesYaml none() {
    return new CredentialSourcesYaml();
  }

  /** A {@code static} source (an S3 or R2 access key) named {@code name}. */
  public static CredentialSourcesYaml s3Static(String name, String accessKeyId, String secret) {
    return none().andS3Static(name, accessKeyId, secret);
  }

  /** A {@code google-service-account} source whose Google endpoints are at {@code endpoint}. */
  public static CredentialSourcesYaml googleServiceAccount(
      String name, String keyFile, String endpoint) {
    Map<String, String> fields = new LinkedHashMap<>(); // in order: Map.of's order varies
    fields.put("keyFile", keyFile);
    fields.put("endpoint", endpoint);
    return none().and(name, "google-service-account", fields);
  }

  /**
   * An {@code azure-client-secret} source: a service principal's secret, exchanged at {@code
   * authorityHost}, for the storage account at {@code endpoint}.
   */
  public static CredentialSourcesYaml azureClientSecret(
      String name,
      String tenantId,
      String clientId,
      String clientSecret,
      String authorityHost,
      String endpoint) {
    Map<String, String> fields = new LinkedHashMap<>();
    fields.put("tenantId", tenantId);
    fields.put("clientId", clientId);
    fields.put("clientSecret", clientSecret);
    fields.put("authorityHost", authorityHost);
    fields.put("endpoint", endpoint);
    return none().and(name, "azure-client-secret", fields);
  }

  /** One more {@code static} source. */
  public CredentialSourcesYaml andS3Static(String name, String accessKeyId, String secret) {
    Map<String, String> fields = new LinkedHashMap<>();
    fields.put("accessKeyId", accessKeyId);
    fields.put("secretAccessKey", secret);
    return and(name, "static", fields);
  }

  /** One more source of any {@code type}, with its keys in the given order. */
  public CredentialSourcesYaml and(String name, String type, Map<String, String> fields) {
    Map<String, String> all = new LinkedHashMap<>();
    all.put("type", type);
    all.putAll(fields);
    if (sources.putIfAbsent(name, all) != null) {
      throw new IllegalArgumentException("Two credential sources named " + name);
    }
    return this;
  }

  /** {@code storage.vendingMinDurationSeconds}: 1 lets a test watch a credential expire. */
  public CredentialSourcesYaml vendingMinDurationSeconds(int seconds) {
    this.vendingMinDurationSeconds = seconds;
    return this;
  }

  /** The {@code storage:} section, ending in a newline. */
  public String toYaml() {
    StringBuilder yaml = new StringBuilder("storage:\n");
    if (!sources.isEmpty()) {
      yaml.append("  credentialSources:\n");
      sources.forEach(
          (name, fields) -> {
            yaml.append("    ").append(name).append(":\n");
            fields.forEach(
                (key, value) ->
                    yaml.append("      ")
                        .append(key)
                        .append(": ")
                        .append(quoted(value))
                        .append('\n'));
          });
    }
    if (vendingMinDurationSeconds != null) {
      yaml.append("  vendingMinDurationSeconds: ").append(vendingMinDurationSeconds).append('\n');
    }
    return yaml.toString();
  }

  private static String quoted(String value) {
    return "\"" + value.replace("\\", "\\\\").replace("\"", "\\\"") + "\"";
  }

  @Override
  public String toString() {
    return toYaml();
  }
}
