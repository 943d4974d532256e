package dev.sluice.api;

import com.fasterxml.jackson.annotation.JsonSetter;
import com.fasterxml.jackson.annotation.Nulls;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonMappingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.cfg.CoercionAction;
import com.fasterxml.jackson.databind.cfg.CoercionInputShape;
import com.fasterxml.jackson.databind.exc.InvalidFormatException;
import com.fasterxml.jackson.databind.exc.MismatchedInputException;
import com.fasterxml.jackson.databind.exc.UnrecognizedPropertyException;
import com.fasterxml.jackson.databind.exc.ValueInstantiationException;
import com.fasterxml.jackson.databind.type.LogicalType;
import java.io.IOException;
import java.util.Collection;
import java.util.TreeSet;

/**
 * Reading and writing the records of this package. A server reads requests {@link #strict()}ly: a
 * field the contract does not have, a value of the wrong type, a duplicate key or a missing
 * required field is refused with a message naming the field ({@link #read}). A client reads answers
 * {@link #lenient()}ly, so that a newer server's added fields do not break it.
 */
public final class ManagementJson {
  private static final ObjectMapper STRICT = mapper(true);
  private static final ObjectMapper LENIENT = mapper(false);

  private ManagementJson() {}

  /** Unknown fields refused: requests on the server, answers in tests. */
  public static ObjectMapper strict() {
    return STRICT;
  }

  /** Unknown fields ignored: answers read by a client. */
  public static ObjectMapper lenient() {
    return LENIENT;
  }

  /**
   * {@code body} as a {@code type}, strictly; {@link ContractViolation} names the field that is
   * unknown, missing or of the wrong type.
   */
  public static <T> T read(byte[] body, Class<T> type) {
    if (body == null || body.length == 0) {
      throw new ContractViolation("Invalid request: empty body");
    }
    try {
      T value = STRICT.readValue(body, type);
      if (value == null) {
        throw new ContractViolation("Invalid request: body is null");
      }
      return value;
    } catch (UnrecognizedPropertyException e) {
      throw new ContractViolation(
          "Unknown field: "
              + path(e)
              + known(e.getKnownPropertyIds())
              + " (the management API's contract: /api/management/v1/openapi.yaml)");
    } catch (ValueInstantiationException e) {
      Throwable cause = e.getCause();
      throw new ContractViolation(
          cause instanceof IllegalArgumentException || cause instanceof NullPointerException
              ? message(cause, e)
              : "Invalid request: " + e.getOriginalMessage());
    } catch (InvalidFormatException e) {
      throw new ContractViolation("Invalid field " + path(e) + ": " + e.getOriginalMessage());
    } catch (MismatchedInputException e) {
      String path = path(e);
      String message = e.getOriginalMessage();
      if (message != null && message.startsWith("Trailing token")) {
        throw new ContractViolation("Invalid JSON body: content after the JSON value");
      }
      if (message != null && message.startsWith("Missing required creator property")) {
        throw new ContractViolation("Missing field: " + missing(path, message));
      }
      throw new ContractViolation(
          path.isEmpty()
              ? "Invalid request: expected a JSON object"
              : "Invalid field " + path + ": " + expected(e));
    } catch (JsonProcessingException e) {
      throw new ContractViolation("Invalid JSON body: " + e.getOriginalMessage());
    } catch (IOException e) {
      throw new ContractViolation("Cannot read request body");
    }
  }

  /** A request body that breaks the contract: the server answers it 400 with this message. */
  public static final class ContractViolation extends IllegalArgumentException {
    public ContractViolation(String message) {
      super(message);
    }
  }

  private static String message(Throwable cause, JsonMappingException e) {
    String message = cause.getMessage();
    if (cause instanceof NullPointerException) {
      String path = path(e);
      return "Missing field: " + (path.isEmpty() ? String.valueOf(message) : path);
    }
    return message;
  }

  private static String missing(String path, String message) {
    // "Missing required creator property 'name' (index 1)"
    int open = message.indexOf('\'');
    int close = open < 0 ? -1 : message.indexOf('\'', open + 1);
    String field = close < 0 ? "?" : message.substring(open + 1, close);
    // At the root Jackson's path already ends with the missing property; nested, it does not.
    if (path.equals(field) || path.endsWith("." + field)) {
      return path;
    }
    return path.isEmpty() ? field : path + "." + field;
  }

  private static String expected(MismatchedInputException e) {
    Class<?> target = e.getTargetType();
    if (target == null) {
      return "wrong type";
    }
    if (target == String.class) {
      return "must be a string";
    }
    if (target == Boolean.class || target == boolean.class) {
      return "must be true or false";
    }
    if (Number.class.isAssignableFrom(target) || target.isPrimitive()) {
      return "must be a number";
    }
    if (Collection.class.isAssignableFrom(target)) {
      return "must be an array";
    }
    return "must be an object";
  }

  private static String known(Collection<Object> ids) {
    if (ids == null || ids.isEmpty()) {
      return "";
    }
    TreeSet<String> names = new TreeSet<>();
    ids.forEach(id -> names.add(String.valueOf(id)));
    return " (known: " + String.join(", ", names) + ")";
  }

  /** The dotted path of the field an error is about ({@code catalog.storageConfigInfo}). */
  private static String path(JsonMappingException e) {
    StringBuilder out = new StringBuilder();
    for (JsonMappingException.Reference ref : e.getPath()) {
      if (ref.getFieldName() != null) {
        if (out.length() > 0) {
          out.append('.');
        }
        out.append(ref.getFieldName());
      } else if (ref.getIndex() >= 0) {
        out.append('[').append(ref.getIndex()).append(']');
      }
    }
    return out.toString();
  }

  private static ObjectMapper mapper(boolean strict) {
    ObjectMapper mapper = new ObjectMapper();
    mapper.configure(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES, strict);
    mapper.configure(DeserializationFeature.FAIL_ON_NULL_FOR_PRIMITIVES, true);
    mapper.configure(DeserializationFeature.FAIL_ON_TRAILING_TOKENS, true);
    mapper.configure(JsonParser.Feature.STRICT_DUPLICATE_DETECTION, strict);
    // A number or boolean where a string belongs is a client error, not something to coerce.
    mapper
        .coercionConfigFor(LogicalType.Textual)
        .setCoercion(CoercionInputShape.Integer, CoercionAction.Fail)
        .setCoercion(CoercionInputShape.Float, CoercionAction.Fail)
        .setCoercion(CoercionInputShape.Boolean, CoercionAction.Fail);
    mapper
        .coercionConfigFor(LogicalType.Boolean)
        .setCoercion(CoercionInputShape.String, CoercionAction.Fail)
        .setCoercion(CoercionInputShape.Integer, CoercionAction.Fail);
    mapper
        .coercionConfigFor(LogicalType.Integer)
        .setCoercion(CoercionInputShape.String, CoercionAction.Fail)
        .setCoercion(CoercionInputShape.Float, CoercionAction.Fail);
    // A null inside a list or map (a property value, a namespace level) is refused while parsing.
    mapper.setDefaultSetterInfo(JsonSetter.Value.forContentNulls(Nulls.FAIL));
    return mapper;
  }
}
