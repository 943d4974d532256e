package dev.sluice;

import dev.sluice.testing.NeedsTestBeds;
import dev.sluice.testing.PostgresTestDatabase;
import java.nio.file.Path;

/** {@link StoreCopyTest} from the embedded H2 into a real, empty PostgreSQL database. */
@NeedsTestBeds
class StoreCopyPostgresTest extends StoreCopyTest {
  @Override
  protected String targetUrl(Path dir) {
    return PostgresTestDatabase.fresh();
  }
}
