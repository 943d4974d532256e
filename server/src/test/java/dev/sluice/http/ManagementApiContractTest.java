package dev.sluice.http;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.annotation.JsonProperty;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import dev.sluice.StandardBackends;
import dev.sluice.api.ReadableTableLocations;
import dev.sluice.authz.Privilege;
import java.io.InputStream;
import java.lang.reflect.ParameterizedType;
import java.lang.reflect.RecordComponent;
import java.lang.reflect.Type;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Deque;
import java.util.HashSet;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The management API's OpenAPI document ({@code openapi/management-api.yaml}) and the server agree:
 * every route {@link ManagementRoutes#DECLARED} registers is in the document with its operation id,
 * path parameters, request record and success status and record, and the reverse; every schema the
 * routes reach has exactly the fields, types and required fields of its record in {@code
 * dev.sluice.api}, and the reverse; each storage type's schema lists exactly the keys its backend
 * takes. The server checks each answer against its declaration at run time ({@code
 * Declared.checkedReply}), so the document describes what is answered.
 */
class ManagementApiContractTest {
  private static final String BASE = ManagementRoutes.BASE;
  private static final Pattern PARAM = Pattern.compile("\\{(\\w+)}");
  private static final Set<String> DOCUMENT_ROUTES =
      Set.of("GET /openapi.yaml", "GET /openapi.json");

  /**
   * Sluice's extensions of the Iceberg REST API that the document also describes (under that API's
   * base, a path-level server), each with the record it answers.
   */
  private static final Map<String, Class<?>> ICEBERG_EXTENSIONS =
      Map.of("GET " + ReadableLocationsRoute.PATH, ReadableTableLocations.class);

  private static final Set<String> HTTP_METHODS =
      Set.of("get", "put", "post", "delete", "patch", "head");

  private static JsonNode doc;
  private static JsonNode schemas;

  @BeforeAll
  static void read() throws Exception {
    try (InputStream in =
        ManagementApiContractTest.class
            .getClassLoader()
            .getResourceAsStream(ApiDocument.RESOURCE)) {
      assertThat(in).as(ApiDocument.RESOURCE).isNotNull();
      doc = new ObjectMapper(new YAMLFactory()).readTree(in);
    }
    schemas = doc.path("components").path("schemas");
    assertThat(doc.path("openapi").asText()).startsWith("3.");
  }

  private static Map<String, JsonNode> documentedOperations() {
    Map<String, JsonNode> out = new TreeMap<>();
    doc.path("paths")
        .fields()
        .forEachRemaining(
            path ->
                path.getValue()
                    .fields()
                    .forEachRemaining(
                        op -> {
                          if (HTTP_METHODS.contains(op.getKey())) {
                            out.put(op.getKey().toUpperCase() + " " + path.getKey(), op.getValue());
                          }
                        }));
    return out;
  }

  private static String key(ManagementRoutes.Declared d) {
    assertThat(d.path()).startsWith(BASE);
    return d.method() + " " + d.path().substring(BASE.length());
  }

  @Test
  void everyDeclaredRouteIsDocumentedAndTheReverse() {
    Map<String, JsonNode> documented = documentedOperations();
    Set<String> declared = new TreeSet<>(DOCUMENT_ROUTES);
    declared.addAll(ICEBERG_EXTENSIONS.keySet());
    ManagementRoutes.DECLARED.forEach(d -> declared.add(key(d)));
    assertThat(documented.keySet()).as("operations in the document").isEqualTo(declared);
  }

  @Test
  void icebergExtensionsAreServedUnderTheIcebergBaseAndAnswerTheirRecords() {
    for (Map.Entry<String, Class<?>> extension : ICEBERG_EXTENSIONS.entrySet()) {
      String[] route = extension.getKey().split(" ", 2);
      assertThat(IcebergRoutes.DECLARED)
          .as("served: " + extension.getKey())
          .anyMatch(d -> d.method().equals(route[0]) && d.path().equals(route[1]));
      JsonNode item = doc.path("paths").path(route[1]);
      assertThat(item.path("servers").get(0).path("url").asText()).endsWith("/api/catalog");
      JsonNode schema =
          item.path(route[0].toLowerCase())
              .path("responses")
              .path("200")
              .path("content")
              .path("application/json")
              .path("schema");
      assertThat(ref(schema)).isEqualTo(extension.getValue().getSimpleName());
    }
  }

  @Test
  void operationIdsAreTheAuditedActions() {
    Map<String, JsonNode> documented = documentedOperations();
    Set<String> ids = new HashSet<>();
    for (ManagementRoutes.Declared d : ManagementRoutes.DECLARED) {
      JsonNode op = documented.get(key(d));
      assertThat(op.path("operationId").asText()).as(key(d)).isEqualTo(d.action());
      assertThat(ids.add(d.action())).as("operation id used once: " + d.action()).isTrue();
    }
  }

  @Test
  void pathParametersAreDocumented() {
    for (ManagementRoutes.Declared d : ManagementRoutes.DECLARED) {
      String path = d.path().substring(BASE.length());
      Set<String> inTemplate = new TreeSet<>();
      Matcher m = PARAM.matcher(path);
      while (m.find()) {
        inTemplate.add(m.group(1));
      }
      Set<String> documented = new TreeSet<>();
      JsonNode item = doc.path("paths").path(path);
      List<JsonNode> params = new ArrayList<>();
      item.path("parameters").forEach(params::add);
      item.path(d.method().toLowerCase()).path("parameters").forEach(params::add);
      for (JsonNode p : params) {
        JsonNode resolved = resolve(p);
        if (resolved.path("in").asText().equals("path")) {
          assertThat(resolved.path("required").asBoolean()).as(path + " " + resolved).isTrue();
          documented.add(resolved.path("name").asText());
        }
      }
      assertThat(documented).as("path parameters of " + key(d)).isEqualTo(inTemplate);
    }
  }

  @Test
  void requestAndResponseBodiesAreTheDeclaredRecords() {
    Map<String, JsonNode> documented = documentedOperations();
    for (ManagementRoutes.Declared d : ManagementRoutes.DECLARED) {
      JsonNode op = documented.get(key(d));
      JsonNode requestSchema = op.path("requestBody").path("content").path("application/json");
      if (d.request() == Void.class) {
        assertThat(op.has("requestBody")).as(key(d) + " takes no body").isFalse();
      } else {
        assertThat(ref(requestSchema.path("schema")))
            .as(key(d) + " request")
            .isEqualTo(d.request().getSimpleName());
      }
      JsonNode responses = op.path("responses");
      List<String> successes = new ArrayList<>();
      responses
          .fieldNames()
          .forEachRemaining(
              s -> {
                if (s.startsWith("2")) {
                  successes.add(s);
                }
              });
      assertThat(successes).as(key(d) + " success statuses").containsExactly("" + d.status());
      JsonNode success = responses.path("" + d.status());
      if (d.response() == Void.class) {
        assertThat(success.has("content")).as(key(d) + " answers no body").isFalse();
      } else {
        assertThat(ref(success.path("content").path("application/json").path("schema")))
            .as(key(d) + " response")
            .isEqualTo(d.response().getSimpleName());
      }
      // Every error answer has Iceberg's ErrorResponse shape.
      responses
          .fields()
          .forEachRemaining(
              r -> {
                if (!r.getKey().startsWith("2")) {
                  JsonNode resolved = resolve(r.getValue());
                  assertThat(ref(resolved.path("content").path("application/json").path("schema")))
                      .as(key(d) + " " + r.getKey())
                      .isEqualTo("IcebergErrorResponse");
                }
              });
    }
  }

  /** Each record the routes reach, and each schema of the document, field for field. */
  @Test
  void schemasAreTheRecordsFieldForField() {
    Set<Class<?>> records = reachableRecords();
    Set<String> described = new TreeSet<>();
    for (Class<?> type : records) {
      String name = type.getSimpleName();
      JsonNode schema = schemas.path(name);
      assertThat(schema.isObject()).as("schema " + name + " for " + type.getName()).isTrue();
      described.add(name);
      Map<String, String> fields = new TreeMap<>();
      Set<String> required = new TreeSet<>();
      for (RecordComponent c : type.getRecordComponents()) {
        JsonProperty property = c.getAccessor().getAnnotation(JsonProperty.class);
        if (property == null) {
          property = c.getAnnotation(JsonProperty.class);
        }
        String json =
            property != null && !property.value().isEmpty() ? property.value() : c.getName();
        fields.put(json, shape(c.getGenericType(), c.getName()));
        if (c.getType().isPrimitive() || (property != null && property.required())) {
          required.add(json);
        }
      }
      Map<String, String> documented = new TreeMap<>();
      schema
          .path("properties")
          .fields()
          .forEachRemaining(f -> documented.put(f.getKey(), shape(f.getValue())));
      assertThat(documented).as("fields of " + name).isEqualTo(fields);
      Set<String> documentedRequired = new TreeSet<>();
      schema.path("required").forEach(r -> documentedRequired.add(r.asText()));
      assertThat(documentedRequired).as("required fields of " + name).isEqualTo(required);
    }
    // The reverse: no schema describes something the server does not have.
    Set<String> storage = storageSchemas().keySet();
    Set<String> all = new TreeSet<>();
    schemas.fieldNames().forEachRemaining(all::add);
    all.removeAll(described);
    all.removeAll(storage);
    all.removeAll(
        Set.of(
            "StorageConfigInfo",
            "StorageIdentity",
            "IcebergExpression",
            "IcebergErrorResponse",
            "ErrorModel"));
    assertThat(all).as("schemas no record has").isEmpty();
  }

  @Test
  void eachStorageTypeListsExactlyTheKeysItsBackendTakes() {
    Map<String, JsonNode> bySchema = storageSchemas();
    JsonNode mapping = schemas.path("StorageConfigInfo").path("discriminator").path("mapping");
    Map<String, Set<String>> backendKeys = StandardBackends.create().configKeys();
    Set<String> types = new TreeSet<>();
    mapping.fieldNames().forEachRemaining(types::add);
    assertThat(types).as("storage types documented").isEqualTo(new TreeSet<>(backendKeys.keySet()));
    for (String type : types) {
      String name = mapping.path(type).asText().substring("#/components/schemas/".length());
      JsonNode schema = bySchema.get(name);
      assertThat(schema).as(name).isNotNull();
      assertThat(schema.path("additionalProperties").asBoolean(true))
          .as(name + " refuses other keys")
          .isFalse();
      Set<String> keys = new TreeSet<>();
      schema.path("properties").fieldNames().forEachRemaining(keys::add);
      Set<String> expected = new TreeSet<>(backendKeys.get(type));
      expected.add("storageType");
      expected.add("allowedLocations");
      assertThat(keys).as("keys of storageType " + type).isEqualTo(expected);
      assertThat(schema.path("properties").path("storageType").path("enum").get(0).asText())
          .isEqualTo(type);
    }
  }

  /** A namespace's storage identity: exactly the keys some backend takes, nothing else. */
  @Test
  void theStorageIdentityListsExactlyTheKeysTheBackendsTake() {
    JsonNode schema = schemas.path("StorageIdentity");
    assertThat(schema.path("additionalProperties").asBoolean(true)).isFalse();
    Set<String> documented = new TreeSet<>();
    schema.path("properties").fieldNames().forEachRemaining(documented::add);
    Set<String> taken = new TreeSet<>();
    StandardBackends.create().identityKeys().values().forEach(taken::addAll);
    assertThat(taken).as("some backend takes an identity").isNotEmpty();
    assertThat(documented).isEqualTo(taken);
  }

  @Test
  void grantPrivilegesAreThePrivilegesTheServerKnows() {
    Set<String> documented = new TreeSet<>();
    schemas
        .path("Grant")
        .path("properties")
        .path("privilege")
        .path("enum")
        .forEach(p -> documented.add(p.asText()));
    Set<String> known = new TreeSet<>();
    Arrays.stream(Privilege.values()).forEach(p -> known.add(p.name()));
    assertThat(documented).isEqualTo(known);
  }

  // ---------------------------------------------------------------- helpers

  private static Map<String, JsonNode> storageSchemas() {
    Map<String, JsonNode> out = new TreeMap<>();
    for (JsonNode option : schemas.path("StorageConfigInfo").path("oneOf")) {
      String name = ref(option);
      out.put(name, schemas.path(name));
    }
    return out;
  }

  private static Set<Class<?>> reachableRecords() {
    Set<Class<?>> out = new LinkedHashSet<>();
    Deque<Class<?>> todo = new ArrayDeque<>();
    for (ManagementRoutes.Declared d : ManagementRoutes.DECLARED) {
      todo.add(d.request());
      todo.add(d.response());
    }
    todo.addAll(ICEBERG_EXTENSIONS.values());
    while (!todo.isEmpty()) {
      Class<?> type = todo.pop();
      if (!type.isRecord() || !out.add(type)) {
        continue;
      }
      for (RecordComponent c : type.getRecordComponents()) {
        Type t = c.getGenericType();
        if (t instanceof ParameterizedType p) {
          for (Type arg : p.getActualTypeArguments()) {
            if (arg instanceof Class<?> k) {
              todo.add(k);
            }
          }
        } else if (t instanceof Class<?> k) {
          todo.add(k);
        }
      }
    }
    return out;
  }

  /**
   * A Java field's shape in the document's terms: string, integer, boolean, array<…>, map, $ref.
   */
  private static String shape(Type type, String field) {
    if (type instanceof ParameterizedType p) {
      Class<?> raw = (Class<?>) p.getRawType();
      if (List.class.isAssignableFrom(raw)) {
        return "array<" + shape(p.getActualTypeArguments()[0], field) + ">";
      }
      if (Map.class.isAssignableFrom(raw)) {
        return "map<" + shape(p.getActualTypeArguments()[1], field) + ">";
      }
    }
    Class<?> k = (Class<?>) type;
    if (k == String.class) {
      return "string";
    }
    if (k == long.class || k == Long.class || k == int.class || k == Integer.class) {
      return "integer";
    }
    if (k == boolean.class || k == Boolean.class) {
      return "boolean";
    }
    if (k == ObjectNode.class && field.equals("storageConfigInfo")) {
      return "$StorageConfigInfo";
    }
    if (k == ObjectNode.class && field.equals("storageIdentity")) {
      return "$StorageIdentity";
    }
    if (k == JsonNode.class && field.equals("rowFilter")) {
      return "$IcebergExpression";
    }
    if (k.isRecord()) {
      return "$" + k.getSimpleName();
    }
    throw new AssertionError("A contract record field of an undocumentable type: " + k);
  }

  private static String shape(JsonNode schema) {
    if (schema.has("$ref")) {
      return "$" + ref(schema);
    }
    String type = schema.path("type").asText();
    return switch (type) {
      case "array" -> "array<" + shape(schema.path("items")) + ">";
      case "object" -> "map<" + shape(schema.path("additionalProperties")) + ">";
      default -> type;
    };
  }

  private static String ref(JsonNode node) {
    String ref = node.path("$ref").asText("");
    int slash = ref.lastIndexOf('/');
    return slash < 0 ? ref : ref.substring(slash + 1);
  }

  private static JsonNode resolve(JsonNode node) {
    if (!node.has("$ref")) {
      return node;
    }
    String[] parts = node.path("$ref").asText().substring(2).split("/");
    JsonNode out = doc;
    for (String part : parts) {
      out = out.path(part);
    }
    return out;
  }
}
