package dev.sluice.e2e;

import java.util.ArrayList;
import java.util.List;
import java.util.logging.Handler;
import java.util.logging.Level;
import java.util.logging.LogRecord;
import java.util.logging.Logger;
import java.util.logging.SimpleFormatter;

/**
 * The bridge's own log (java.util.logging, FINE), captured in this JVM: Spark runs in local mode,
 * so the bridge Comet instantiates logs here. Shows which table each credential request went to.
 */
final class BridgeLog extends Handler implements AutoCloseable {
  private final Logger logger = Logger.getLogger("dev.sluice.client.comet");
  private final Level previous;
  private final List<String> lines = new ArrayList<>();
  private final SimpleFormatter formatter = new SimpleFormatter();

  BridgeLog() {
    previous = logger.getLevel();
    logger.setLevel(Level.FINE);
    setLevel(Level.FINE);
    logger.addHandler(this);
  }

  @Override
  public synchronized void publish(LogRecord record) {
    lines.add(formatter.formatMessage(record));
  }

  synchronized List<String> lines() {
    return List.copyOf(lines);
  }

  @Override
  public void flush() {}

  @Override
  public void close() {
    logger.removeHandler(this);
    logger.setLevel(previous);
  }
}
