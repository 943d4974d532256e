package dev.sluice;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.LoggerContext;
import ch.qos.logback.classic.encoder.PatternLayoutEncoder;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.Appender;
import ch.qos.logback.core.OutputStreamAppender;
import ch.qos.logback.core.encoder.Encoder;
import dev.sluice.config.LoggingSection;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Applies {@code logging} to the running process (the {@code serve} command, once its config is
 * read): the line format of the console appender {@link LogConfigurator} makes, and each logger's
 * level. Until then, lines are JSON ({@link JsonLogEncoder}), the format for machines.
 */
final class LogSetup {
  /** What a person reads: UTC time to the millisecond, level, logger, request id, message. */
  static final String TEXT_PATTERN =
      "%d{yyyy-MM-dd'T'HH:mm:ss.SSS'Z',UTC} %-5level %logger{1} %X{requestId}- %msg %kvp{NONE}%n";

  private LogSetup() {}

  static void apply(LoggingSection logging, boolean terminal) {
    if (!(LoggerFactory.getILoggerFactory() instanceof LoggerContext context)) {
      return; // another SLF4J binding: its own configuration applies
    }
    ch.qos.logback.classic.Logger root = context.getLogger(Logger.ROOT_LOGGER_NAME);
    Appender<ILoggingEvent> appender = root.getAppender("STDOUT");
    if (appender instanceof OutputStreamAppender<ILoggingEvent> console) {
      Encoder<ILoggingEvent> encoder = encoder(logging, terminal, context);
      console.stop();
      console.setEncoder(encoder);
      console.start();
    }
    logging
        .level()
        .forEach(
            (logger, level) ->
                (logger.equals("root") ? root : context.getLogger(logger))
                    .setLevel(Level.toLevel(level)));
  }

  static Encoder<ILoggingEvent> encoder(
      LoggingSection logging, boolean terminal, LoggerContext context) {
    Encoder<ILoggingEvent> encoder;
    if (logging.json(terminal)) {
      encoder = new JsonLogEncoder();
    } else {
      PatternLayoutEncoder text = new PatternLayoutEncoder();
      text.setPattern(TEXT_PATTERN);
      encoder = text;
    }
    encoder.setContext(context);
    encoder.start();
    return encoder;
  }
}
