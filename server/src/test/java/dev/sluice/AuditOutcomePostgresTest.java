package dev.sluice;

import dev.sluice.testing.NeedsTestBeds;
import dev.sluice.testing.PostgresTestDatabase;
import dev.sluice.testing.TestServer;

/** {@link AuditOutcomeTest} with the server on a real PostgreSQL. */
@NeedsTestBeds
class AuditOutcomePostgresTest extends AuditOutcomeTest {
  @Override
  protected TestServer startSluice(String yaml) throws Exception {
    return TestServer.start(PostgresTestDatabase.fresh(), yaml);
  }
}
