package dev.sluice.cli;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.dataformat.yaml.YAMLMapper;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Function;

/**
 * The CLI's config file of named connections ({@code $SLUICE_CLI_CONFIG}, else {@code
 * $XDG_CONFIG_HOME/sluice/cli.yaml}, else {@code ~/.config/sluice/cli.yaml}):
 *
 * <pre>
 * profiles:
 *   prod:
 *     url: https://sluice.example.com
 *     clientId: ops-admin
 *     clientSecretEnv: SLUICE_PROD_SECRET   # or clientSecretFile: ~/.secrets/sluice-prod
 *     caFile: /etc/sluice/ca.pem
 * </pre>
 *
 * The secret is read from the variable or file the profile names; a {@code clientSecret} in clear
 * is accepted only because the user wrote it there, and is never printed. Relative paths are read
 * from the file's directory; {@code ~/} is the home directory.
 */
final class Profiles {
  static final String ENV_FILE = "SLUICE_CLI_CONFIG";
  static final String ENV_PROFILE = "SLUICE_PROFILE";

  /** Used when no profile is named and the file has one of this name. */
  static final String DEFAULT = "default";

  private static final Set<String> KEYS =
      Set.of(
          "url",
          "clientId",
          "clientSecret",
          "clientSecretEnv",
          "clientSecretFile",
          "caFile",
          "clientCert",
          "clientKey");

  /** One profile; {@code secret} reads its client secret when asked (null when it has none). */
  record Profile(
      String name,
      String url,
      String clientId,
      Path caFile,
      Path clientCert,
      Path clientKey,
      java.util.function.Supplier<String> secret) {}

  private Profiles() {}

  /** Where the file is when {@code --cli-config} and {@code SLUICE_CLI_CONFIG} say nothing. */
  static Path defaultFile(Function<String, String> env) {
    String xdg = env.apply("XDG_CONFIG_HOME");
    Path config =
        xdg != null && !xdg.isBlank()
            ? Path.of(xdg)
            : Path.of(System.getProperty("user.home"), ".config");
    return config.resolve("sluice").resolve("cli.yaml");
  }

  /**
   * Profile {@code name} of {@code file}; with no name, the file's {@code default} profile if it
   * has one, else none (null). A named profile that is not there is an error listing those that
   * are. Problems are {@link IllegalArgumentException}s whose message names the file and key.
   */
  static Profile load(Path file, String name, Function<String, String> env) {
    boolean named = name != null && !name.isBlank();
    if (!Files.isRegularFile(file)) {
      if (named) {
        throw new IllegalArgumentException(
            "Profile '" + name + "' not found: no CLI config file " + file);
      }
      return null;
    }
    JsonNode root;
    try {
      root = new YAMLMapper().readTree(Files.readString(file, StandardCharsets.UTF_8));
    } catch (IOException e) {
      throw new IllegalArgumentException("Cannot read CLI config " + file + ": " + e.getMessage());
    }
    JsonNode profiles = root == null ? null : root.get("profiles");
    if (profiles == null || !profiles.isObject()) {
      if (named) {
        throw new IllegalArgumentException(
            "Profile '" + name + "' not found: " + file + " has no profiles: mapping");
      }
      return null;
    }
    String wanted = named ? name : DEFAULT;
    JsonNode profile = profiles.get(wanted);
    if (profile == null) {
      if (!named) {
        return null;
      }
      List<String> known = new ArrayList<>();
      profiles.fieldNames().forEachRemaining(known::add);
      throw new IllegalArgumentException(
          "Profile '" + name + "' not found in " + file + " (profiles: " + known + ")");
    }
    String where = file + ": profiles." + wanted;
    if (!profile.isObject()) {
      throw new IllegalArgumentException(where + " must be a mapping");
    }
    for (Map.Entry<String, JsonNode> field : profile.properties()) {
      if (!KEYS.contains(field.getKey())) {
        throw new IllegalArgumentException(
            where
                + ": unknown key "
                + field.getKey()
                + " (known: "
                + KEYS.stream().sorted().toList()
                + ")");
      }
      if (!field.getValue().isValueNode()) {
        throw new IllegalArgumentException(where + "." + field.getKey() + " must be a string");
      }
    }
    Path dir = file.toAbsolutePath().getParent();
    String secretEnv = text(profile, "clientSecretEnv");
    Path secretFile = path(dir, text(profile, "clientSecretFile"));
    String clear = text(profile, "clientSecret");
    int sources =
        (secretEnv != null ? 1 : 0) + (secretFile != null ? 1 : 0) + (clear != null ? 1 : 0);
    if (sources > 1) {
      throw new IllegalArgumentException(
          where + ": give one of clientSecretEnv, clientSecretFile and clientSecret");
    }
    return new Profile(
        wanted,
        text(profile, "url"),
        text(profile, "clientId"),
        path(dir, text(profile, "caFile")),
        path(dir, text(profile, "clientCert")),
        path(dir, text(profile, "clientKey")),
        () -> secret(where, secretEnv, secretFile, clear, env));
  }

  private static String secret(
      String where, String secretEnv, Path secretFile, String clear, Function<String, String> env) {
    if (secretEnv != null) {
      String value = env.apply(secretEnv);
      if (value == null || value.isBlank()) {
        throw new IllegalArgumentException(
            where + ".clientSecretEnv names " + secretEnv + ", which is not set");
      }
      return value;
    }
    if (secretFile != null) {
      try {
        return Files.readString(secretFile, StandardCharsets.UTF_8).strip();
      } catch (IOException e) {
        throw new IllegalArgumentException(
            where
                + ".clientSecretFile: cannot read "
                + secretFile
                + " ("
                + e.getClass().getSimpleName()
                + ")");
      }
    }
    return clear;
  }

  private static String text(JsonNode profile, String key) {
    JsonNode value = profile.get(key);
    return value == null || value.isNull() || value.asText().isBlank() ? null : value.asText();
  }

  private static Path path(Path dir, String value) {
    if (value == null) {
      return null;
    }
    if (value.startsWith("~/")) {
      return Path.of(System.getProperty("user.home")).resolve(value.substring(2));
    }
    return dir.resolve(value);
  }
}
