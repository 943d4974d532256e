package dev.sluice.config;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.sluice.tls.TrustedProxies;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;
import java.util.function.Function;

/**
 * Every scalar key may also be set by an environment variable, for containers: {@code SLUICE_} and
 * the key's dotted name in upper snake case ({@code server.limits.maxConnections} is {@code
 * SLUICE_SERVER_LIMITS_MAX_CONNECTIONS}, {@code database.password} is {@code
 * SLUICE_DATABASE_PASSWORD}). A variable wins over the file, and a command-line option over both; a
 * list takes comma-separated values. Mappings ({@code storage.credentialSources}, {@code
 * logging.level}) are the file's, with {@code ${VAR}} inside.
 */
public final class EnvironmentKeys {
  private static final String PREFIX = "SLUICE_";

  /** Variable name → key, for every key a variable may set. */
  private static final Map<String, ConfigModel.Key> BY_VARIABLE = byVariable();

  private EnvironmentKeys() {}

  /** The variable that sets {@code key}. */
  public static String variableFor(String key) {
    return PREFIX
        + key.replaceAll("([a-z0-9])([A-Z])", "$1_$2").replace('.', '_').toUpperCase(Locale.ROOT);
  }

  /** Every variable a key may be set with, with its key, in the model's order. */
  public static Map<String, String> variables() {
    Map<String, String> out = new LinkedHashMap<>();
    BY_VARIABLE.forEach((variable, key) -> out.put(variable, key.name()));
    return out;
  }

  /** Sets in {@code root} the keys whose variables {@code env} has, over the file's values. */
  static void applyTo(ObjectNode root, Function<String, String> env) {
    BY_VARIABLE.forEach(
        (variable, key) -> {
          String value = env.apply(variable);
          if (value == null) {
            return;
          }
          String[] path = key.name().split("\\.");
          ObjectNode parent = root;
          for (int i = 0; i < path.length - 1; i++) {
            JsonNode child = parent.get(path[i]);
            parent = child instanceof ObjectNode object ? object : parent.putObject(path[i]);
          }
          String leaf = path[path.length - 1];
          if (isList(key.type())) {
            ArrayNode list = parent.putArray(leaf);
            for (String item : value.split(",")) {
              if (!item.isBlank()) {
                list.add(item.strip());
              }
            }
          } else {
            parent.put(leaf, value);
          }
        });
  }

  /** Keys the file gives as a YAML list. */
  private static boolean isList(Class<?> type) {
    return Collection.class.isAssignableFrom(type) || type == TrustedProxies.class;
  }

  private static Map<String, ConfigModel.Key> byVariable() {
    Map<String, ConfigModel.Key> out = new LinkedHashMap<>();
    for (ConfigModel.Key key : ConfigModel.keys(ServerConfig.class)) {
      if (key.section() || Map.class.isAssignableFrom(key.type())) {
        continue;
      }
      ConfigModel.Key before = out.put(variableFor(key.name()), key);
      if (before != null) {
        throw new IllegalStateException(
            "Config keys " + before.name() + " and " + key.name() + " share a variable");
      }
    }
    return out;
  }
}
