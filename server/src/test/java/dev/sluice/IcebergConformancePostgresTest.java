package dev.sluice;

import dev.sluice.testing.NeedsTestBeds;
import dev.sluice.testing.PostgresTestDatabase;
import dev.sluice.testing.TestServer;

/** {@link IcebergConformanceTest} with the server on a real PostgreSQL. */
@NeedsTestBeds
class IcebergConformancePostgresTest extends IcebergConformanceTest {
  @Override
  protected TestServer startSluice() throws Exception {
    return TestServer.start(PostgresTestDatabase.fresh());
  }
}
