package dev.sluice.cli;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;

/**
 * JSON calls to {@code /api/management/v1}. Authenticates on the first call and reuses the
 * token for the rest of the command (a command makes at most a handful of calls).
 */
final class ManagementClient {
  static final String MANAGEMENT_PATH = "/api/management/v1";

  private final URI base;
  private final String clientId;
  private final String clientSecret;
  private final ObjectMapper mapper = new ObjectMapper();
  private final HttpTransport transport = new HttpTransport();
  private String token;

  ManagementClient(URI base, String clientId, String clientSecret) {
    this.base = base;
    this.clientId = clientId;
    this.clientSecret = clientSecret;
  }

  /** The response body, or null when the server sent none (204, or an empty 201). */
  JsonNode get(String path) {
    return call("GET", path, null);
  }

  JsonNode post(String path, JsonNode body) {
    return call("POST", path, body);
  }

  JsonNode put(String path, JsonNode body) {
    return call("PUT", path, body);
  }

  JsonNode delete(String path) {
    return call("DELETE", path, null);
  }

  private JsonNode call(String method, String path, JsonNode body) {
    HttpRequest.Builder request =
        HttpRequest.newBuilder(URI.create(base + MANAGEMENT_PATH + path))
            .timeout(HttpTransport.REQUEST_TIMEOUT)
            .header("Authorization", "Bearer " + token())
            .header("Accept", "application/json");
    if (body == null) {
      request.method(method, HttpRequest.BodyPublishers.noBody());
    } else {
      request.header("Content-Type", "application/json")
          .method(method, HttpRequest.BodyPublishers.ofString(write(body), StandardCharsets.UTF_8));
    }
    HttpResponse<String> response = transport.send(request.build());
    if (response.statusCode() / 100 != 2) {
      throw ApiException.from(response.statusCode(), response.body());
    }
    return read(response.body());
  }

  private String token() {
    if (token == null) {
      token = new TokenClient(transport, mapper).fetch(base, clientId, clientSecret);
    }
    return token;
  }

  private String write(JsonNode body) {
    try {
      return mapper.writeValueAsString(body);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  private JsonNode read(String body) {
    if (body == null || body.isBlank()) {
      return null;
    }
    try {
      return mapper.readTree(body);
    } catch (IOException e) {
      throw new AdminFailure("the server answered with invalid JSON", e);
    }
  }
}
