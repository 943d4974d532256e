package dev.sluice;

import static org.assertj.core.api.Assertions.assertThat;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.LoggerContext;
import ch.qos.logback.core.ConsoleAppender;
import org.junit.jupiter.api.Test;

/** Logback's configuration in code: what logback.xml said. */
class LogConfiguratorTest {
  @Test
  void oneJsonConsoleAppenderQuietLibrariesAndTheAccessLogAtItsLevel() {
    LoggerContext context = new LoggerContext();
    LogConfigurator.apply(context, "WARN");

    Logger root = context.getLogger(Logger.ROOT_LOGGER_NAME);
    assertThat(root.getLevel()).isEqualTo(Level.INFO);
    assertThat(root.getAppender("STDOUT"))
        .isInstanceOfSatisfying(
            ConsoleAppender.class,
            console -> {
              assertThat(console.isStarted()).isTrue();
              assertThat(console.getEncoder()).isInstanceOf(JsonLogEncoder.class);
            });
    assertThat(context.getLogger("sluice.access").getLevel()).isEqualTo(Level.WARN);
    for (String library :
        new String[] {
          "org.eclipse.jetty", "com.zaxxer.hikari", "org.flywaydb", "org.apache.iceberg"
        }) {
      assertThat(context.getLogger(library).getLevel()).as(library).isEqualTo(Level.WARN);
    }
  }

  @Test
  void theAccessLogIsAtInfoUnlessSaidOtherwise() {
    LoggerContext context = new LoggerContext();
    LogConfigurator.apply(context, null);
    assertThat(context.getLogger("sluice.access").getLevel()).isEqualTo(Level.INFO);
  }
}
