package dev.sluice.store;

import dev.sluice.testing.NeedsTestBeds;
import dev.sluice.testing.PostgresTestDatabase;

/** The store contract on a real PostgreSQL server. */
@NeedsTestBeds
class PostgresStoreTest extends StoreContract {
  @Override
  protected Store openStore() {
    return JdbcStore.open(new DatabaseConfig(PostgresTestDatabase.fresh(), null, null, 10, 5000));
  }
}
