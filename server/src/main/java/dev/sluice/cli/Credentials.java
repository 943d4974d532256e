package dev.sluice.cli;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.PrintWriter;

/** The one place that prints a client secret: right after the server minted it. */
final class Credentials {
  private final String clientId;
  private final String clientSecret;

  private Credentials(String clientId, String clientSecret) {
    this.clientId = clientId;
    this.clientSecret = clientSecret;
  }

  /** Reads {@code credentials.clientId/clientSecret} from a create or rotate response. */
  static Credentials from(JsonNode response) {
    JsonNode credentials = response == null ? null : response.path("credentials");
    if (credentials == null
        || !credentials.path("clientId").isTextual()
        || !credentials.path("clientSecret").isTextual()) {
      throw new AdminFailure("the server's response carries no credentials");
    }
    return new Credentials(
        credentials.get("clientId").asText(), credentials.get("clientSecret").asText());
  }

  void print(PrintWriter out) {
    out.println("client id: " + clientId);
    out.println("client secret: " + clientSecret);
    out.println("(the secret is shown only this once: store it now)");
  }
}
