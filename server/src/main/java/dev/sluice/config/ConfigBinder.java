package dev.sluice.config;

import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.JsonStreamContext;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.core.exc.InputCoercionException;
import com.fasterxml.jackson.databind.DeserializationContext;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JavaType;
import com.fasterxml.jackson.databind.JsonMappingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.cfg.CoercionAction;
import com.fasterxml.jackson.databind.cfg.CoercionInputShape;
import com.fasterxml.jackson.databind.deser.std.StdDeserializer;
import com.fasterxml.jackson.databind.exc.InvalidFormatException;
import com.fasterxml.jackson.databind.exc.MismatchedInputException;
import com.fasterxml.jackson.databind.exc.UnrecognizedPropertyException;
import com.fasterxml.jackson.databind.json.JsonMapper;
import com.fasterxml.jackson.databind.module.SimpleModule;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.fasterxml.jackson.databind.node.TextNode;
import com.fasterxml.jackson.databind.type.LogicalType;
import com.fasterxml.jackson.dataformat.yaml.YAMLMapper;
import dev.sluice.tls.TrustedProxies;
import dev.sluice.vending.CredentialSource;
import dev.sluice.vending.StorageBackends;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.format.DateTimeParseException;
import java.util.ArrayDeque;
import java.util.Collection;
import java.util.Deque;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;
import java.util.function.Function;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Reads the YAML, expands {@code ${VAR}}, and binds the tree to the section records with Jackson:
 * unknown keys are errors, and every Jackson error becomes a {@link ConfigException} naming the
 * dotted key ({@link #toConfigException}), never Jackson's own message.
 *
 * <p>Scalars given as strings are accepted ({@code port: "8181"}): a value from {@code ${VAR}} is
 * always a string. Floats are not integers, and an empty string is no value of a number, boolean,
 * duration or path.
 */
final class ConfigBinder {
  private static final Pattern VAR = Pattern.compile("\\$\\{([A-Za-z_][A-Za-z0-9_]*)}");

  private final ObjectMapper mapper;

  ConfigBinder(StorageBackends backends) {
    SimpleModule types =
        new SimpleModule("sluice-config")
            .addDeserializer(Path.class, new PathValue())
            .addDeserializer(Duration.class, new DurationValue())
            .addDeserializer(TrustedProxies.class, new TrustedProxiesValue())
            .addDeserializer(CredentialSource.class, new CredentialSourceValue(backends));
    JsonMapper json =
        JsonMapper.builder()
            .enable(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES)
            .disable(DeserializationFeature.ACCEPT_FLOAT_AS_INT)
            .addModule(types)
            .build();
    json.coercionConfigDefaults().setCoercion(CoercionInputShape.EmptyString, CoercionAction.Fail);
    json.coercionConfigFor(LogicalType.Boolean)
        .setCoercion(CoercionInputShape.Integer, CoercionAction.Fail);
    this.mapper = json;
  }

  /** The file's top-level mapping; empty for no file or an empty one. */
  static ObjectNode read(Path file) {
    if (file == null) {
      return JsonNodeFactory.instance.objectNode(); // no YAML parser to start without a file
    }
    ObjectMapper yaml = new YAMLMapper();
    JsonNode parsed;
    try {
      parsed = yaml.readTree(Files.readString(file));
    } catch (IOException e) {
      throw new ConfigException("Cannot read config file " + file + ": " + e.getMessage());
    }
    if (parsed == null || parsed.isMissingNode() || parsed.isNull()) {
      return yaml.createObjectNode();
    }
    if (parsed instanceof ObjectNode object) {
      return object;
    }
    throw new ConfigException("Config file " + file + " must hold a mapping at the top level");
  }

  /** Replaces each {@code ${VAR}} in a string value of a mapping by the environment's value. */
  static void expand(ObjectNode node, String path, Function<String, String> env) {
    Iterator<Map.Entry<String, JsonNode>> fields = node.fields();
    while (fields.hasNext()) {
      Map.Entry<String, JsonNode> field = fields.next();
      String key = path.isEmpty() ? field.getKey() : path + "." + field.getKey();
      JsonNode value = field.getValue();
      if (value instanceof ObjectNode child) {
        expand(child, key, env);
      } else if (value.isTextual()) {
        Matcher m = VAR.matcher(value.asText());
        StringBuilder out = new StringBuilder();
        while (m.find()) {
          String resolved = env.apply(m.group(1));
          if (resolved == null) {
            throw new ConfigException(
                key + " refers to ${" + m.group(1) + "}, which is not set in the environment");
          }
          m.appendReplacement(out, Matcher.quoteReplacement(resolved));
        }
        m.appendTail(out);
        field.setValue(TextNode.valueOf(out.toString()));
      }
    }
  }

  /** The tree bound to {@code type}; the records' constructors check and default each key. */
  <T> T bind(JsonNode tree, Class<T> type) {
    try {
      return mapper.treeToValue(tree, type);
    } catch (JsonProcessingException e) {
      throw toConfigException(e);
    }
  }

  /** The one place a Jackson error becomes a message for the operator. */
  static ConfigException toConfigException(JsonProcessingException e) {
    for (Throwable cause = e; cause != null; cause = cause.getCause()) {
      if (cause instanceof ConfigException config) {
        return config;
      }
      if (cause instanceof IllegalArgumentException checked) {
        // A lower layer's check (store, auth, tls, a storage backend): its message names the key.
        return new ConfigException(checked.getMessage());
      }
    }
    String key =
        e instanceof JsonMappingException mapping
            ? keyOf(mapping.getPath())
            : e.getProcessor() instanceof JsonParser parser
                ? keyOf(parser.getParsingContext())
                : "";
    String at = key.isEmpty() ? "The config file" : key;
    if (e instanceof UnrecognizedPropertyException unknown) {
      TreeSet<String> known = new TreeSet<>();
      unknown.getKnownPropertyIds().forEach(id -> known.add(String.valueOf(id)));
      return new ConfigException("Unknown config key: " + key + " (known: " + known + ")");
    }
    if (e instanceof InvalidFormatException format) {
      String value = String.valueOf(format.getValue());
      if (value.isBlank()) {
        return new ConfigException(at + " must not be empty");
      }
      return new ConfigException(
          at + " must be " + expected(format.getTargetType()) + ", got: " + value);
    }
    if (e instanceof MismatchedInputException mismatch && mismatch.getTargetType() != null) {
      return new ConfigException(
          at + " must be " + expected(mismatch.getTargetType()) + got(mismatch));
    }
    for (Throwable cause = e; cause != null; cause = cause.getCause()) {
      if (cause instanceof InputCoercionException range) {
        return new ConfigException(
            at + " must be " + expected(range.getTargetType()) + " within its range" + got(range));
      }
    }
    // What Jackson reports otherwise: its own reason, named.
    String reason = e.getOriginalMessage();
    return new ConfigException(
        at + " is not valid: " + (reason == null ? e.getClass().getSimpleName() : reason));
  }

  /** What a value of {@code type} is, as the docs call it. */
  private static String expected(Class<?> type) {
    if (type == Integer.class
        || type == int.class
        || type == Long.class
        || type == long.class
        || type == Short.class
        || type == short.class) {
      return "an integer";
    }
    if (type == Boolean.class || type == boolean.class) {
      return "true or false";
    }
    if (type == String.class) {
      return "a string";
    }
    if (type == Duration.class) {
      return "an ISO-8601 duration such as PT30M";
    }
    if (type == Path.class) {
      return "a file path";
    }
    if (Map.class.isAssignableFrom(type) || type.isRecord()) {
      return "a mapping";
    }
    if (Collection.class.isAssignableFrom(type) || type.isArray()) {
      return "a list";
    }
    return "a " + type.getSimpleName();
  }

  /** {@code ", got: …"} for the value that did not fit, when the parser still shows it. */
  private static String got(JsonProcessingException e) {
    if (!(e.getProcessor() instanceof JsonParser parser)) {
      return "";
    }
    JsonToken token = parser.currentToken();
    if (token == JsonToken.START_OBJECT) {
      return ", got a mapping";
    }
    if (token == JsonToken.START_ARRAY) {
      return ", got a list";
    }
    try {
      return token != null && token.isScalarValue() ? ", got: " + parser.getText() : "";
    } catch (IOException ignored) {
      return "";
    }
  }

  /** {@code server.limits.maxConnections}, {@code server.trustedProxies[1]}. */
  static String keyOf(List<JsonMappingException.Reference> path) {
    StringBuilder key = new StringBuilder();
    for (JsonMappingException.Reference reference : path) {
      if (reference.getFieldName() != null) {
        key.append(key.isEmpty() ? "" : ".").append(reference.getFieldName());
      } else if (reference.getIndex() >= 0) {
        key.append('[').append(reference.getIndex()).append(']');
      }
    }
    return key.toString();
  }

  /** The dotted key of where a parser is. */
  static String keyOf(JsonStreamContext context) {
    Deque<JsonMappingException.Reference> path = new ArrayDeque<>();
    for (JsonStreamContext c = context; c != null && !c.inRoot(); c = c.getParent()) {
      if (c.inObject() && c.getCurrentName() != null) {
        path.addFirst(new JsonMappingException.Reference(null, c.getCurrentName()));
      } else if (c.inArray() && c.hasCurrentIndex()) {
        path.addFirst(new JsonMappingException.Reference(null, c.getCurrentIndex()));
      }
    }
    return keyOf(List.copyOf(path));
  }

  /** The text of a scalar; anything else is refused as not a {@code type}. */
  private static String scalarText(JsonParser p, DeserializationContext ctxt, Class<?> type)
      throws IOException {
    if (!p.currentToken().isScalarValue()) {
      ctxt.handleUnexpectedToken(type, p);
    }
    return p.getValueAsString();
  }

  /** A path, absolute and normalized, as the server will open it. */
  private static final class PathValue extends StdDeserializer<Path> {
    PathValue() {
      super(Path.class);
    }

    @Override
    public Path deserialize(JsonParser p, DeserializationContext ctxt) throws IOException {
      String text = scalarText(p, ctxt, Path.class);
      if (text == null || text.isBlank()) {
        throw ctxt.weirdStringException(text, Path.class, "empty");
      }
      return Path.of(text).toAbsolutePath().normalize();
    }
  }

  /** An ISO-8601 duration such as {@code PT30M}. */
  private static final class DurationValue extends StdDeserializer<Duration> {
    DurationValue() {
      super(Duration.class);
    }

    @Override
    public Duration deserialize(JsonParser p, DeserializationContext ctxt) throws IOException {
      String text = scalarText(p, ctxt, Duration.class);
      try {
        return Duration.parse(text.trim());
      } catch (DateTimeParseException e) {
        throw ctxt.weirdStringException(text, Duration.class, "not ISO-8601");
      }
    }
  }

  /** {@code server.trustedProxies}: a list of IP addresses or CIDR blocks. */
  private static final class TrustedProxiesValue extends StdDeserializer<TrustedProxies> {
    TrustedProxiesValue() {
      super(TrustedProxies.class);
    }

    @Override
    public TrustedProxies deserialize(JsonParser p, DeserializationContext ctxt)
        throws IOException {
      String key = keyOf(p.getParsingContext());
      JavaType list = ctxt.getTypeFactory().constructCollectionType(List.class, String.class);
      List<String> entries = ctxt.readValue(p, list);
      return TrustedProxies.parse(entries, key);
    }
  }

  /**
   * {@code storage.credentialSources.<name>}: a mapping of strings whose keys the owning storage
   * backend checks ({@link StorageBackends#parseSource}); config knows none of them.
   */
  private static final class CredentialSourceValue extends StdDeserializer<CredentialSource> {
    private final StorageBackends backends;

    CredentialSourceValue(StorageBackends backends) {
      super(CredentialSource.class);
      this.backends = backends;
    }

    @Override
    public CredentialSource deserialize(JsonParser p, DeserializationContext ctxt)
        throws IOException {
      String name = p.currentName();
      if (!p.isExpectedStartObjectToken()) {
        ctxt.handleUnexpectedToken(Map.class, p);
      }
      JavaType fields =
          ctxt.getTypeFactory().constructMapType(LinkedHashMap.class, String.class, String.class);
      Map<String, String> values = ctxt.readValue(p, fields);
      return backends.parseSource(name, values);
    }
  }
}
