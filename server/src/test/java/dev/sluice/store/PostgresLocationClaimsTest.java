package dev.sluice.store;

import dev.sluice.testing.NeedsTestBeds;
import dev.sluice.testing.PostgresTestDatabase;

/** Location claims on a real PostgreSQL server. */
@NeedsTestBeds
class PostgresLocationClaimsTest extends LocationClaimsContract {
  @Override
  protected Store openStore() {
    return JdbcStore.open(new DatabaseConfig(PostgresTestDatabase.fresh(), null, null, 20, 5000));
  }
}
