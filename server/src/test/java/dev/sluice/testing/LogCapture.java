package dev.sluice.testing;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.read.ListAppender;
import java.util.List;
import org.slf4j.LoggerFactory;

/** Collects every event logged through the root logger while open. */
public final class LogCapture implements AutoCloseable {
  private final Logger root = (Logger) LoggerFactory.getLogger(org.slf4j.Logger.ROOT_LOGGER_NAME);
  private final ListAppender<ILoggingEvent> appender = new ListAppender<>();

  public LogCapture() {
    appender.setContext(root.getLoggerContext());
    appender.start();
    root.addAppender(appender);
  }

  /** Every event so far. */
  public List<ILoggingEvent> events() {
    synchronized (appender) {
      return List.copyOf(appender.list);
    }
  }

  /** ERROR events that carry a throwable (a stack trace in the log). */
  public List<ILoggingEvent> errorsWithThrowable() {
    synchronized (appender) {
      return appender.list.stream()
          .filter(e -> e.getLevel().isGreaterOrEqual(Level.ERROR) && e.getThrowableProxy() != null)
          .toList();
    }
  }

  /** Every event's formatted message, with its throwable's class and message when it has one. */
  public List<String> messages() {
    synchronized (appender) {
      return appender.list.stream()
          .map(
              e ->
                  e.getFormattedMessage()
                      + (e.getThrowableProxy() == null
                          ? ""
                          : " "
                              + e.getThrowableProxy().getClassName()
                              + ": "
                              + e.getThrowableProxy().getMessage()))
          .toList();
    }
  }

  @Override
  public void close() {
    root.detachAppender(appender);
    appender.stop();
  }
}
