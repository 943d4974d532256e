package dev.sluice.store;

import java.nio.file.Files;

/** Federated catalogs' claims on the embedded default: an H2 file. */
class H2RemoteClaimsTest extends RemoteClaimsContract {
  @Override
  protected Store openStore() throws Exception {
    String url =
        "jdbc:h2:file:"
            + Files.createTempDirectory("sluice-h2").resolve("catalog")
            + ";DB_CLOSE_ON_EXIT=FALSE";
    return JdbcStore.open(new DatabaseConfig(url, null, null, 20, 5000));
  }
}
