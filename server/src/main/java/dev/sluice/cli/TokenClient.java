package dev.sluice.cli;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;

/** Exchanges client credentials for a bearer token at the server's OAuth2 token endpoint. */
final class TokenClient {
  static final String TOKEN_PATH = "/api/catalog/v1/oauth/tokens";
  // Admin commands act with every role the principal holds, as the Polaris CLI does.
  static final String SCOPE = "PRINCIPAL_ROLE:ALL";

  private final HttpTransport transport;
  private final ObjectMapper mapper;

  TokenClient(HttpTransport transport, ObjectMapper mapper) {
    this.transport = transport;
    this.mapper = mapper;
  }

  String fetch(URI base, String clientId, String clientSecret) {
    return fetch(URI.create(base + TOKEN_PATH), clientId, clientSecret, SCOPE);
  }

  /** A token from {@code tokenUri} (any Iceberg REST catalog's) for {@code scope}. */
  String fetch(URI tokenUri, String clientId, String clientSecret, String scope) {
    String form =
        "grant_type=client_credentials"
            + "&client_id="
            + formEncode(clientId)
            + "&client_secret="
            + formEncode(clientSecret)
            + "&scope="
            + formEncode(scope);
    HttpRequest request =
        HttpRequest.newBuilder(tokenUri)
            .timeout(HttpTransport.REQUEST_TIMEOUT)
            .header("Content-Type", "application/x-www-form-urlencoded")
            .header("Accept", "application/json")
            .POST(HttpRequest.BodyPublishers.ofString(form, StandardCharsets.UTF_8))
            .build();
    HttpResponse<String> response = transport.send(request);
    if (response.statusCode() / 100 != 2) {
      throw ApiException.from(response.statusCode(), response.body());
    }
    JsonNode token = parse(response.body()).path("access_token");
    if (!token.isTextual() || token.asText().isBlank()) {
      throw new AdminFailure("the token endpoint answered without an access_token");
    }
    return token.asText();
  }

  private JsonNode parse(String body) {
    try {
      return mapper.readTree(body);
    } catch (IOException e) {
      throw new AdminFailure("the token endpoint answered with invalid JSON", e);
    }
  }

  private static String formEncode(String value) {
    return URLEncoder.encode(value, StandardCharsets.UTF_8);
  }
}
