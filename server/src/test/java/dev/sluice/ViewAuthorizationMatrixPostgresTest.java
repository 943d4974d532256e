package dev.sluice;

import dev.sluice.testing.NeedsTestBeds;
import dev.sluice.testing.PostgresTestDatabase;
import dev.sluice.testing.TestServer;

/** {@link ViewAuthorizationMatrixTest} with the server on a real PostgreSQL. */
@NeedsTestBeds
class ViewAuthorizationMatrixPostgresTest extends ViewAuthorizationMatrixTest {
  @Override
  protected TestServer startSluice() throws Exception {
    return TestServer.start(PostgresTestDatabase.fresh());
  }
}
