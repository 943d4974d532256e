package dev.sluice.store;

import dev.sluice.testing.NeedsTestBeds;
import dev.sluice.testing.PostgresTestDatabase;

/** Federated catalogs' claims on a real PostgreSQL server, raced from two replicas. */
@NeedsTestBeds
class PostgresRemoteClaimsTest extends RemoteClaimsContract {
  private String url;

  @Override
  protected Store openStore() {
    url = PostgresTestDatabase.fresh();
    return JdbcStore.open(new DatabaseConfig(url, null, null, 20, 5000));
  }

  @Override
  protected Store openReplica() {
    return JdbcStore.open(new DatabaseConfig(url, null, null, 20, 5000));
  }
}
