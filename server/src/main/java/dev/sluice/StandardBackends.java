package dev.sluice;

import dev.sluice.vending.StorageBackends;
import dev.sluice.vending.azure.AzureBackend;
import dev.sluice.vending.file.FileBackend;
import dev.sluice.vending.gcs.GcsBackend;
import dev.sluice.vending.r2.R2Backend;
import dev.sluice.vending.s3.S3Backend;
import java.util.List;

/**
 * Every storage backend Sluice ships, registered here in the wiring: a new backend is one line
 * here, and nothing in {@code vending} names one. The server, its config and the tests all take
 * their {@link StorageBackends} from here, once, and pass it on.
 */
public final class StandardBackends {
  private StandardBackends() {}

  public static StorageBackends create() {
    return new StorageBackends(
        List.of(
            new FileBackend(),
            new S3Backend(),
            new R2Backend(),
            new GcsBackend(),
            new AzureBackend()));
  }
}
