package dev.sluice.bench.target;

import java.nio.file.Path;

/**
 * A started server: its process, how to reach it without credentials, and its recording (if any).
 */
public record RunningServer(ServerProcess process, Endpoint anonymous, Path flightRecording)
    implements AutoCloseable {
  @Override
  public void close() {
    process.close();
  }
}
