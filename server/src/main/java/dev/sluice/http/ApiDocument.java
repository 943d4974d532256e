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
 * for the console's API reference page. Read once; it names no secret.
 */
final class ApiDocument {
  static final String RESOURCE = "openapi/management-api.yaml";
  static final String YAML_PATH = ManagementRoutes.BASE + "/openapi.yaml";
  static final String JSON_PATH = ManagementRoutes.BASE + "/openapi.json";

  private final byte[] yaml;
  private final byte[] json;

  ApiDocument() {
    try (InputStream in = ApiDocument.class.getClassLoader().getResourceAsStream(RESOURCE)) {
      if (in == null) {
        throw new IllegalStateException("The jar holds no " + RESOURCE);
      }
      yaml = in.readAllBytes();
      json =
          new ObjectMapper().writeValueAsBytes(new ObjectMapper(new YAMLFactory()).readTree(yaml));
    } catch (IOException e) {
      throw new UncheckedIOException("Cannot read " + RESOURCE, e);
    }
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
        x -> new Reply(200, json, false, Map.of("Content-Type", "application/json")));
  }
}
