package dev.sluice;

import dev.sluice.testing.NeedsTestBeds;
import dev.sluice.testing.PostgresTestDatabase;
import dev.sluice.testing.TestServer;

/** {@link IcebergViewConformanceTest} with the server on a real PostgreSQL. */
@NeedsTestBeds
class IcebergViewConformancePostgresTest extends IcebergViewConformanceTest {
  @Override
  protected TestServer startSluice() throws Exception {
    return TestServer.start(PostgresTestDatabase.fresh());
  }
}
