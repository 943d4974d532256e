package dev.sluice;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.LoggerContext;
import ch.qos.logback.classic.spi.Configurator;
import ch.qos.logback.classic.spi.ConfiguratorRank;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.ConsoleAppender;
import ch.qos.logback.core.spi.ContextAwareBase;
import ch.qos.logback.core.status.NopStatusListener;
import java.util.Map;

/**
 * Logback's configuration, made in code (named in {@code META-INF/services}): one console appender,
 * {@code STDOUT}, writing JSON lines ({@link JsonLogEncoder}) until {@code serve} applies {@code
 * logging.format} ({@link LogSetup}); the chatty libraries at WARN; the access log ({@code
 * sluice.access}) at {@code SLUICE_ACCESS_LOG_LEVEL}, INFO by default. In code rather than in a
 * {@code logback.xml}: parsing that file took half of logging's start-up. A file still wins when
 * one is given ({@code -Dlogback.configurationFile}) or the class path has a {@code
 * logback-test.xml} (the tests').
 */
@ConfiguratorRank(ConfiguratorRank.CUSTOM_HIGH_PRIORITY)
public final class LogConfigurator extends ContextAwareBase implements Configurator {
  /** The access log's logger. */
  static final String ACCESS = "sluice.access";

  /** Libraries whose INFO lines are noise beside Sluice's own. */
  static final Map<String, Level> QUIET =
      Map.of(
          "org.eclipse.jetty", Level.WARN,
          "com.zaxxer.hikari", Level.WARN,
          "org.flywaydb", Level.WARN,
          "org.apache.iceberg", Level.WARN);

  @Override
  public ExecutionStatus configure(LoggerContext context) {
    if (System.getProperty("logback.configurationFile") != null
        || LogConfigurator.class.getClassLoader().getResource("logback-test.xml") != null) {
      return ExecutionStatus.NEUTRAL; // logback's own configurators read the file
    }
    apply(context, accessLevel());
    return ExecutionStatus.DO_NOT_INVOKE_NEXT_IF_ANY;
  }

  /** {@code SLUICE_ACCESS_LOG_LEVEL}, a system property or else an environment variable. */
  private static String accessLevel() {
    String level = System.getProperty("SLUICE_ACCESS_LOG_LEVEL");
    return level != null ? level : System.getenv("SLUICE_ACCESS_LOG_LEVEL");
  }

  /** Configures {@code context}, with the access log at {@code accessLevel} (null: INFO). */
  static void apply(LoggerContext context, String accessLevel) {
    // Logback's own status messages stay out of the log.
    context.getStatusManager().add(new NopStatusListener());
    JsonLogEncoder encoder = new JsonLogEncoder();
    encoder.setContext(context);
    encoder.start();
    ConsoleAppender<ILoggingEvent> console = new ConsoleAppender<>();
    console.setContext(context);
    console.setName("STDOUT");
    console.setEncoder(encoder);
    console.start();
    QUIET.forEach((name, level) -> context.getLogger(name).setLevel(level));
    context.getLogger(ACCESS).setLevel(Level.toLevel(accessLevel, Level.INFO));
    Logger root = context.getLogger(Logger.ROOT_LOGGER_NAME);
    root.setLevel(Level.INFO);
    root.addAppender(console);
  }
}
