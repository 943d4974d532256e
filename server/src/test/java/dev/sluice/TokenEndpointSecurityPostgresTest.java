package dev.sluice;

import dev.sluice.testing.NeedsTestBeds;
import dev.sluice.testing.PostgresTestDatabase;
import dev.sluice.testing.TestServer;
import org.junit.jupiter.api.Test;

/** The token-exchange narrowing rules, and their audit trail, on PostgreSQL. */
@NeedsTestBeds
class TokenEndpointSecurityPostgresTest {
  @Test
  void tokenExchangeNeverWidens() throws Exception {
    try (TestServer server = TestServer.start(PostgresTestDatabase.fresh())) {
      TokenEndpointSecurityTest.exchangeNeverWidens(server, "tpg");
    }
  }
}
