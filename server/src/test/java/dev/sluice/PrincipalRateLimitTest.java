package dev.sluice;

import static org.assertj.core.api.Assertions.assertThat;

import dev.sluice.testing.Admin;
import dev.sluice.testing.TestServer;
import java.net.http.HttpResponse;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * {@code server.limits.principalRequestsPerSecond}: a principal past its bucket is answered 429
 * with {@code Retry-After}, and another principal is not slowed by it.
 */
class PrincipalRateLimitTest {
  private static final String M = "/api/management/v1";
  private static TestServer server;

  @BeforeAll
  static void start() throws Exception {
    server =
        TestServer.start(
            null, "server:\n  limits:\n    principalRequestsPerSecond: 2\n    principalBurst: 5\n");
  }

  @AfterAll
  static void stop() throws Exception {
    server.close();
  }

  @Test
  void aPrincipalPastItsRateIsTold429AndOthersAreNot() throws Exception {
    String[] other = new Admin(server).principal("other_rate", "other_rate_role");
    String root = server.rootToken();
    List<HttpResponse<String>> answers = new ArrayList<>();
    for (int i = 0; i < 20; i++) {
      answers.add(server.sendAs(root, "GET", M + "/principals/root", null));
    }
    List<HttpResponse<String>> limited =
        answers.stream().filter(r -> r.statusCode() == 429).toList();
    assertThat(limited).as("20 requests at once against a bucket of 5").hasSizeGreaterThan(10);
    assertThat(answers).allMatch(r -> r.statusCode() == 200 || r.statusCode() == 429);
    assertThat(limited.get(0).headers().firstValue("Retry-After")).hasValue("1");
    assertThat(limited.get(0).body()).contains("TooManyRequestsException", "root");

    String token = server.token(other[0], other[1]);
    assertThat(server.sendAs(token, "GET", M + "/principals/other_rate", null).statusCode())
        .as("another principal has a bucket of its own")
        .isEqualTo(200);
    Thread.sleep(1_100);
    assertThat(server.sendAs(root, "GET", M + "/principals/root", null).statusCode())
        .as("the bucket refills at 2 per second")
        .isEqualTo(200);
  }
}
