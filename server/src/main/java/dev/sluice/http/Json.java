package dev.sluice.http;

import com.fasterxml.jackson.annotation.JsonAutoDetect;
import com.fasterxml.jackson.annotation.JsonSetter;
import com.fasterxml.jackson.annotation.Nulls;
import com.fasterxml.jackson.annotation.PropertyAccessor;
import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.StreamReadConstraints;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.PropertyNamingStrategies;
import com.fasterxml.jackson.databind.cfg.CoercionAction;
import com.fasterxml.jackson.databind.cfg.CoercionInputShape;
import com.fasterxml.jackson.databind.type.LogicalType;
import org.apache.iceberg.rest.RESTSerializers;

/**
 * The JSON mapper for REST bodies, configured as Iceberg's own client mapper is, so that requests
 * and responses are byte-compatible with Iceberg clients.
 */
public final class Json {
  private static final ObjectMapper ICEBERG = build();
  private static final ObjectMapper PLAIN = new ObjectMapper();

  private Json() {}

  /** Iceberg REST request/response mapper (kebab-case fields, Iceberg's parsers registered). */
  public static ObjectMapper iceberg() {
    return ICEBERG;
  }

  /** Plain mapper for Sluice's own JSON (management API, OAuth responses). */
  public static ObjectMapper plain() {
    return PLAIN;
  }

  private static ObjectMapper build() {
    JsonFactory factory =
        JsonFactory.builder()
            .streamReadConstraints(StreamReadConstraints.builder().maxNestingDepth(200).build())
            .build();
    ObjectMapper mapper = new ObjectMapper(factory);
    mapper.setVisibility(PropertyAccessor.FIELD, JsonAutoDetect.Visibility.ANY);
    mapper.configure(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES, false);
    mapper.setPropertyNamingStrategy(new PropertyNamingStrategies.KebabCaseStrategy());
    // A number or boolean where a string belongs is a client error, not something to coerce.
    mapper
        .coercionConfigFor(LogicalType.Textual)
        .setCoercion(CoercionInputShape.Integer, CoercionAction.Fail)
        .setCoercion(CoercionInputShape.Float, CoercionAction.Fail)
        .setCoercion(CoercionInputShape.Boolean, CoercionAction.Fail);
    // A null inside a list or map (a property value, a removal) is refused while parsing, as a
    // 400, for every request type bound by Jackson: Iceberg's immutable collections would
    // otherwise fail on it later, as a 500.
    mapper.setDefaultSetterInfo(JsonSetter.Value.forContentNulls(Nulls.FAIL));
    RESTSerializers.registerAll(mapper);
    return mapper;
  }
}
