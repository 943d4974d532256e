package dev.sluice.http;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.util.Map;

/**
 * The management API's OpenAPI document ({@code openapi/management-api.yaml} in the jar), served
 * without a token at {@code /api/management/v1/openapi.yaml}, and as JSON at {@code …/openapi.json}
 * for the console's API reference page. Read once; it names no secret. The JSON form is made at its
 * first request: parsing the 65 KB of YAML cost every start about 60 ms of CPU, for a page few
 * open.
 */
final class ApiDocument {
  static final String RESOURCE = "openapi/management-api.yaml";
  static final String YAML_PATH = ManagementRoutes.BASE + "/openapi.yaml";
  static final String JSON_PATH = ManagementRoutes.BASE + "/openapi.json";

  private final byte[] yaml;
  private volatile byte[] json; // null until first asked for

  ApiDocument() {
    try (InputStream in = ApiDocument.class.getClassLoader().getResourceAsStream(RESOURCE)) {
      if (in == null) {
        throw new IllegalStateException("The jar holds no " + RESOURCE);
      }
      yaml = in.readAllBytes();
    } catch (IOException e) {
      throw new UncheckedIOException("Cannot read " + RESOURCE, e);
    }
  }

  /** The document as JSON (two first requests at once may both convert it: same bytes). */
  private byte[] json() {
    byte[] converted = json;
    if (converted == null) {
      try {
        converted =
            new ObjectMapper()
                .writeValueAsBytes(new ObjectMapper(new YAMLFactory()).readTree(yaml));
      } catch (IOException e) {
        throw new UncheckedIOException("Cannot convert " + RESOURCE + " to JSON", e);
      }
      json = converted;
    }
    return converted;
  }

  void register(HttpServer.Routes routes) {
    routes.addPublic(
        "GET",
        YAML_PATH,
        x ->
            new Reply(200, yaml, false, Map.of("Content-Type", "application/yaml; charset=utf-8")));
    routes.addPublic(
        "GET",
        JSON_PATH,
        x -> new Reply(200, json(), false, Map.of("Content-Type", "application/json")));
  }
}
