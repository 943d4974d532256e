package dev.sluice.config;

import com.fasterxml.jackson.annotation.JsonProperty;
import com.fasterxml.jackson.databind.JsonNode;
import java.lang.reflect.RecordComponent;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The keys of the config, read from the section records themselves (a component is a key; a
 * component that is itself a record is a section), so that the binding, the unknown-key check and
 * docs/CONFIGURATION.md's test all walk the same model.
 */
public final class ConfigModel {
  private ConfigModel() {}

  /** One key: its dotted name, the component's Java type, whether it is a section or a secret. */
  public record Key(String name, Class<?> type, boolean section, boolean secret) {}

  /** Every key under {@code root}, sections included, depth first in declaration order. */
  public static List<Key> keys(Class<? extends Record> root) {
    List<Key> out = new ArrayList<>();
    collect(root, "", out);
    return out;
  }

  private static void collect(Class<?> type, String prefix, List<Key> out) {
    for (Map.Entry<String, RecordComponent> entry : components(type).entrySet()) {
      RecordComponent component = entry.getValue();
      String name = prefix + entry.getKey();
      boolean section = component.getType().isRecord();
      out.add(
          new Key(name, component.getType(), section, component.isAnnotationPresent(Secret.class)));
      if (section) {
        collect(component.getType(), name + ".", out);
      }
    }
  }

  /**
   * Refuses a key the model lacks, at any depth, before anything is bound. Jackson reports an
   * unknown property of a record only after its constructor ran, so a section's own check (say,
   * "server.tls needs either certificate or keyStore") would hide the typo that caused it. Mappings
   * of names ({@code storage.credentialSources}, {@code auth.oidc.roleMappings}) are not walked:
   * their owners check their keys.
   */
  static void requireKnownKeys(JsonNode node, Class<?> type, String prefix) {
    Map<String, RecordComponent> components = components(type);
    for (Iterator<Map.Entry<String, JsonNode>> fields = node.fields(); fields.hasNext(); ) {
      Map.Entry<String, JsonNode> field = fields.next();
      String key = prefix + field.getKey();
      RecordComponent component = components.get(field.getKey());
      if (component == null) {
        throw new ConfigException(
            "Unknown config key: " + key + " (known: " + components.keySet() + ")");
      }
      if (component.getType().isRecord() && field.getValue().isObject()) {
        requireKnownKeys(field.getValue(), component.getType(), key + ".");
      }
    }
  }

  /** A record's keys in declaration order: each component's name, or its {@code @JsonProperty}. */
  private static Map<String, RecordComponent> components(Class<?> type) {
    Map<String, RecordComponent> out = new LinkedHashMap<>();
    for (RecordComponent component : type.getRecordComponents()) {
      JsonProperty renamed = component.getAnnotation(JsonProperty.class);
      String name =
          renamed == null || renamed.value().isEmpty() ? component.getName() : renamed.value();
      out.put(name, component);
    }
    return out;
  }
}
