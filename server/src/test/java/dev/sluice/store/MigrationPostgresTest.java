package dev.sluice.store;

import dev.sluice.testing.NeedsTestBeds;

/** {@link MigrationTest}'s upgrades on PostgreSQL. */
@NeedsTestBeds
class MigrationPostgresTest extends MigrationTest {
  @Override
  String database() {
    return "postgresql";
  }
}
