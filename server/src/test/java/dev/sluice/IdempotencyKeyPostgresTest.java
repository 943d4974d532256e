package dev.sluice;

import static org.assertj.core.api.Assertions.assertThat;

import dev.sluice.testing.NeedsTestBeds;
import dev.sluice.testing.PostgresTestDatabase;
import dev.sluice.testing.TestServer;
import java.net.http.HttpResponse;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * {@link IdempotencyKeyTest} on a real PostgreSQL, plus what needs the database at hand: a second
 * replica answering a retry, stored answers without credentials, and an expired key.
 */
@NeedsTestBeds
class IdempotencyKeyPostgresTest extends IdempotencyKeyTest {
  private String url;

  @Override
  protected TestServer startSluice(String extraYaml) throws Exception {
    url = PostgresTestDatabase.fresh();
    return TestServer.start(url, extraYaml);
  }

  @Test
  void aRetryOnAnotherReplicaGetsTheOriginalAnswer() throws Exception {
    try (TestServer replica = TestServer.start(url)) {
      String key = newKey();
      String path = api() + "/namespaces/ns/tables";
      HttpResponse<String> first = send(key, "POST", path, createBody("across_replicas"));
      assertThat(first.statusCode()).isEqualTo(200);
      HttpResponse<String> onReplica =
          send(replica, replica.rootToken(), key, "POST", path, createBody("across_replicas"));
      assertThat(onReplica.statusCode()).as(onReplica.body()).isEqualTo(200);
      assertThat(onReplica.headers().firstValue("Idempotent-Replayed")).hasValue("true");
      assertThat(TestServer.json(onReplica.body()).path("metadata-location").asText())
          .isEqualTo(TestServer.json(first.body()).path("metadata-location").asText());
    }
  }

  @Test
  void storedAnswersHoldNoConfigNorCredentials() throws Exception {
    String key = newKey();
    assertThat(
            send(key, "POST", api() + "/namespaces/ns/tables", createBody("stored_answer"))
                .statusCode())
        .isEqualTo(200);
    List<String> bodies = new ArrayList<>();
    try (Connection conn = DriverManager.getConnection(url);
        PreparedStatement ps =
            conn.prepareStatement("SELECT response_body FROM idempotency_keys")) {
      try (ResultSet rs = ps.executeQuery()) {
        while (rs.next()) {
          bodies.add(rs.getString(1));
        }
      }
      String created = body(conn, key);
      // A table answer keeps its metadata (a replay answers the first attempt's table, even once
      // that file is gone) and the name of its metadata file; nothing else.
      assertThat(TestServer.json(created).fieldNames())
          .toIterable()
          .containsExactly("metadata-location", "metadata");
    }
    assertThat(bodies).isNotEmpty();
    assertThat(bodies)
        .allSatisfy(
            b -> {
              if (b != null) {
                assertThat(b).doesNotContain("storage-credentials", "\"config\"", "s3.secret");
              }
            });
  }

  @Test
  void anExpiredKeyIsTreatedAsNew() throws Exception {
    String key = newKey();
    String path = api() + "/namespaces";
    assertThat(send(key, "POST", path, "{\"namespace\": [\"expiring\"]}").statusCode())
        .isEqualTo(200);
    assertThat(send(key, "POST", path, "{\"namespace\": [\"expiring\"]}").statusCode())
        .as("within the lifetime: the original answer")
        .isEqualTo(200);
    try (Connection conn = DriverManager.getConnection(url);
        PreparedStatement ps =
            conn.prepareStatement(
                "UPDATE idempotency_keys SET expires_at = ? WHERE idem_key = ?")) {
      ps.setLong(1, System.currentTimeMillis() - 1);
      ps.setString(2, key);
      assertThat(ps.executeUpdate()).isEqualTo(1);
    }
    HttpResponse<String> afterExpiry = send(key, "POST", path, "{\"namespace\": [\"expiring\"]}");
    assertThat(afterExpiry.statusCode()).as("run again: the namespace exists").isEqualTo(409);
    assertThat(afterExpiry.headers().firstValue("Idempotent-Replayed")).isEmpty();
  }

  private static String body(Connection conn, String key) throws Exception {
    try (PreparedStatement ps =
        conn.prepareStatement("SELECT response_body FROM idempotency_keys WHERE idem_key = ?")) {
      ps.setString(1, key);
      try (ResultSet rs = ps.executeQuery()) {
        assertThat(rs.next()).isTrue();
        return rs.getString(1);
      }
    }
  }
}
