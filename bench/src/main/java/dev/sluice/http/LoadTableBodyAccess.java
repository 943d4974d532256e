package dev.sluice.http;

import java.time.Duration;
import org.apache.iceberg.rest.responses.LoadTableResponse;

/**
 * A public door to the server's package-private {@link LoadTableBody}, for the JMH benchmark
 * dev.sluice.bench.micro.SerializeLoadTableBench. This package is split between the server jar and
 * the bench jar; both are on one class path (one class loader, no modules), so this class is in the
 * same runtime package as LoadTableBody. It is not part of the load generator.
 */
public final class LoadTableBodyAccess {
  private final LoadTableBody body;

  public LoadTableBodyAccess(long maxBytes, Duration idle) {
    this.body = new LoadTableBody(maxBytes, idle);
  }

  public byte[] toJson(LoadTableResponse response) {
    return body.toJson(response);
  }
}
