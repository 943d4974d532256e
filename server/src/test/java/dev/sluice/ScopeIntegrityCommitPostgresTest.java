package dev.sluice;

import dev.sluice.testing.NeedsTestBeds;
import dev.sluice.testing.PostgresTestDatabase;
import dev.sluice.testing.TestServer;

/** {@link ScopeIntegrityCommitTest} with the server on a real PostgreSQL. */
@NeedsTestBeds
class ScopeIntegrityCommitPostgresTest extends ScopeIntegrityCommitTest {
  @Override
  protected TestServer startSluice() throws Exception {
    return TestServer.start(PostgresTestDatabase.fresh());
  }
}
