package dev.sluice.cli;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.fasterxml.jackson.dataformat.yaml.YAMLMapper;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Model.OptionSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Spec;

/**
 * A catalog's {@code storageConfigInfo} from the command line: {@code --storage-config FILE} (JSON
 * or YAML) and one flag per key, named as the key in kebab case ({@code roleArn} is {@code
 * --role-arn}); a flag overrides the file's key. Flags of every backend are offered to every
 * storage type and nothing is checked here: the server validates the document and names a bad key,
 * so the CLI needs no change when a backend's rules do. {@code --allowed-location} (repeatable) is
 * the one flag named in the singular.
 */
final class StorageOptions {
  static final String STORAGE_CONFIG = "--storage-config";
  static final String ALLOWED_LOCATION = "--allowed-location";
  private static final String BOOL = "BOOL";

  @Spec(Spec.Target.SELF)
  CommandSpec self;

  @Option(
      names = STORAGE_CONFIG,
      paramLabel = "FILE",
      description =
          "storageConfigInfo as a JSON or YAML file (the object itself, or under a"
              + " storageConfigInfo key); the flags below override its keys")
  Path storageConfig;

  @Option(names = "--storage-type", paramLabel = "TYPE", description = "FILE, S3, R2, GCS or AZURE")
  String storageType;

  @Option(
      names = ALLOWED_LOCATION,
      paramLabel = "LOC",
      description = "A location tables may use (repeatable; the server adds the base location)")
  List<String> allowedLocations;

  // Every vending backend
  @Option(
      names = "--credential-source",
      paramLabel = "NAME",
      description = "The server's storage.credentialSources entry to vend from")
  String credentialSource;

  @Option(names = "--duration-seconds", paramLabel = "S", description = "Credential lifetime")
  Integer durationSeconds;

  @Option(names = "--vend-credentials", paramLabel = "WHEN", description = "always or on-request")
  String vendCredentials;

  @Option(
      names = "--delegation",
      split = ",",
      paramLabel = "KIND",
      description = "vended-credentials and/or remote-signing (S3, R2; comma-separated)")
  List<String> delegation;

  // S3 (AWS, Ceph RGW, RustFS, MinIO) and R2's endpoint
  @Option(names = "--region", paramLabel = "REGION", description = "S3 region")
  String region;

  @Option(names = "--role-arn", paramLabel = "ARN", description = "S3: the role AssumeRole takes")
  String roleArn;

  @Option(names = "--external-id", paramLabel = "ID", description = "S3: AssumeRole external id")
  String externalId;

  @Option(names = "--endpoint", paramLabel = "URL", description = "S3-compatible or R2 endpoint")
  String endpoint;

  @Option(names = "--sts-endpoint", paramLabel = "URL", description = "S3: STS endpoint")
  String stsEndpoint;

  @Option(
      names = "--path-style-access",
      arity = "0..1",
      fallbackValue = "true",
      paramLabel = BOOL,
      description = "S3: path-style requests (alone: true)")
  Boolean pathStyleAccess;

  @Option(
      names = "--read-policy-template",
      paramLabel = "JSON",
      description = "S3: session policy template for readers")
  String readPolicyTemplate;

  @Option(
      names = "--write-policy-template",
      paramLabel = "JSON",
      description = "S3: session policy template for writers")
  String writePolicyTemplate;

  @Option(
      names = "--session-name",
      split = ",",
      paramLabel = "FIELD",
      description = "S3: what the STS session name carries (comma-separated)")
  List<String> sessionName;

  @Option(
      names = "--session-tags",
      split = ",",
      paramLabel = "FIELD",
      description = "S3: the STS session tags (comma-separated)")
  List<String> sessionTags;

  @Option(
      names = "--sts-unavailable",
      arity = "0..1",
      fallbackValue = "true",
      paramLabel = BOOL,
      description = "S3: the store has no STS (remote signing only)")
  Boolean stsUnavailable;

  @Option(
      names = "--unscoped-signing",
      arity = "0..1",
      fallbackValue = "true",
      paramLabel = BOOL,
      description = "S3: remote signing without a scoped credential")
  Boolean unscopedSigning;

  @Option(
      names = "--signature-lifetime-seconds",
      paramLabel = "S",
      description = "S3: remote signatures' lifetime")
  Integer signatureLifetimeSeconds;

  @Option(
      names = "--store-clock-skew-seconds",
      paramLabel = "S",
      description = "S3: clock skew the store tolerates")
  Integer storeClockSkewSeconds;

  // R2
  @Option(
      names = "--current-kms-key",
      paramLabel = "ARN",
      description = "S3: the SSE-KMS key engines write with")
  String currentKmsKey;

  @Option(
      names = "--allowed-kms-keys",
      split = ",",
      paramLabel = "ARN",
      description = "S3: more SSE-KMS keys whose objects engines may read (comma-separated)")
  List<String> allowedKmsKeys;

  @Option(names = "--account-id", paramLabel = "ID", description = "R2: Cloudflare account id")
  String accountId;

  // GCS
  @Option(names = "--project-id", paramLabel = "ID", description = "GCS: project id")
  String projectId;

  @Option(
      names = "--gcs-service-account",
      paramLabel = "EMAIL",
      description = "GCS: service account to impersonate")
  String gcsServiceAccount;

  // Azure
  @Option(names = "--tenant-id", paramLabel = "ID", description = "Azure: Entra tenant id")
  String tenantId;

  @Option(
      names = "--hierarchical-namespace",
      arity = "0..1",
      fallbackValue = "true",
      paramLabel = BOOL,
      description = "Azure: ADLS Gen2 hierarchical namespace")
  Boolean hierarchicalNamespace;

  @Option(
      names = "--allow-container-scope",
      arity = "0..1",
      fallbackValue = "true",
      paramLabel = BOOL,
      description = "Azure: allow a container-wide SAS")
  Boolean allowContainerScope;

  @Option(
      names = "--multi-tenant-app-name",
      paramLabel = "NAME",
      description = "Azure: multi-tenant application name")
  String multiTenantAppName;

  @Option(names = "--consent-url", paramLabel = "URL", description = "Azure: admin consent URL")
  String consentUrl;

  /** True when the command line says anything about storage (a file or any flag). */
  boolean given() {
    return self.options().stream().anyMatch(o -> o.getValue() != null);
  }

  /**
   * The storageConfigInfo to send: {@code base} (a copy; the file's document instead, when given),
   * then each flag given. {@code storageType} is sent upper-cased.
   */
  ObjectNode apply(ObjectNode base, CommandSpec command) {
    ObjectNode info = storageConfig == null ? base.deepCopy() : read(storageConfig, command);
    for (OptionSpec option : self.options()) {
      Object value = option.getValue();
      if (value == null || option.longestName().equals(STORAGE_CONFIG)) {
        continue;
      }
      String key = key(option.longestName());
      if (value instanceof List<?> list) {
        ArrayNode array = info.putArray(key);
        list.forEach(item -> array.add(String.valueOf(item)));
      } else if (value instanceof Boolean bool) {
        info.put(key, bool);
      } else if (value instanceof Integer number) {
        info.put(key, number);
      } else {
        info.put(key, value.toString());
      }
    }
    if (info.path("storageType").isTextual()) {
      info.put("storageType", info.get("storageType").asText().toUpperCase(Locale.ROOT));
    }
    return info;
  }

  /**
   * {@code --role-arn} is {@code roleArn}; {@code --allowed-location} is {@code allowedLocations}.
   */
  static String key(String optionName) {
    if (optionName.equals(ALLOWED_LOCATION)) {
      return "allowedLocations";
    }
    StringBuilder key = new StringBuilder();
    boolean upper = false;
    for (char c : optionName.substring(2).toCharArray()) {
      if (c == '-') {
        upper = true;
      } else {
        key.append(upper ? Character.toUpperCase(c) : c);
        upper = false;
      }
    }
    return key.toString();
  }

  private static ObjectNode read(Path file, CommandSpec command) {
    JsonNode document;
    try {
      String text = Files.readString(file);
      ObjectMapper mapper =
          file.toString().toLowerCase(Locale.ROOT).endsWith(".json")
              ? new ObjectMapper()
              : new YAMLMapper();
      document = mapper.readTree(text);
    } catch (IOException e) {
      throw new ParameterException(
          command.commandLine(),
          "Cannot read " + STORAGE_CONFIG + " " + file + ": " + e.getMessage());
    }
    if (document != null && document.path("storageConfigInfo").isObject()) {
      document = document.get("storageConfigInfo");
    }
    if (!(document instanceof ObjectNode object)) {
      throw new ParameterException(
          command.commandLine(),
          STORAGE_CONFIG + " " + file + " must hold a storageConfigInfo object");
    }
    return object;
  }
}
