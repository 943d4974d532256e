package dev.sluice;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import picocli.CommandLine;

/**
 * For tests of the store's offline commands (backup, restore, store copy): the {@code sluice}
 * command line run in this JVM, and the plain HTTP calls that check what a server started on the
 * result serves.
 */
final class CommandRuns {
  private static final HttpClient HTTP = HttpClient.newHttpClient();
  private static final ObjectMapper JSON = new ObjectMapper();

  private CommandRuns() {}

  /** One run of the command line: its exit status and what it printed on each stream. */
  record Run(int exit, String out, String err) {}

  static Run sluice(String... args) {
    StringWriter out = new StringWriter();
    StringWriter err = new StringWriter();
    int exit =
        new CommandLine(new Main())
            .setOut(new PrintWriter(out))
            .setErr(new PrintWriter(err))
            .execute(args);
    return new Run(exit, out.toString(), err.toString());
  }

  /** A JSON call to {@code server} with {@code token}; {@code body} is JSON text or null. */
  static HttpResponse<String> call(
      SluiceServer server, String token, String method, String path, String body) throws Exception {
    HttpRequest.Builder request =
        HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + server.port() + path))
            .header("Authorization", "Bearer " + token)
            .header("Content-Type", "application/json")
            .method(
                method,
                body == null
                    ? HttpRequest.BodyPublishers.noBody()
                    : HttpRequest.BodyPublishers.ofString(body));
    return HTTP.send(request.build(), HttpResponse.BodyHandlers.ofString());
  }

  /** A token for {@code clientId} with all its principal roles, asserting 200. */
  static String token(SluiceServer server, String clientId, String secret) throws Exception {
    HttpResponse<String> answer =
        HTTP.send(
            HttpRequest.newBuilder(
                    URI.create(
                        "http://127.0.0.1:" + server.port() + "/api/catalog/v1/oauth/tokens"))
                .header("Content-Type", "application/x-www-form-urlencoded")
                .POST(
                    HttpRequest.BodyPublishers.ofString(
                        "grant_type=client_credentials&scope=PRINCIPAL_ROLE%3AALL&client_id="
                            + clientId
                            + "&client_secret="
                            + secret))
                .build(),
            HttpResponse.BodyHandlers.ofString());
    assertThat(answer.statusCode()).as(answer.body()).isEqualTo(200);
    return JSON.readTree(answer.body()).get("access_token").asText();
  }
}
