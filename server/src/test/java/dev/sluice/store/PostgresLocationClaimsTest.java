package dev.sluice.store;

import dev.sluice.testing.PostgresTestDatabase;

/** Location claims on a real PostgreSQL server. */
class PostgresLocationClaimsTest extends LocationClaimsContract {
  @Override
  protected Store openStore() {
    return JdbcStore.open(new DatabaseConfig(PostgresTestDatabase.fresh(), null, null, 20, 5000));
  }
}
