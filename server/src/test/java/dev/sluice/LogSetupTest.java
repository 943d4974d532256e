package dev.sluice;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.LoggerContext;
import ch.qos.logback.classic.spi.LoggingEvent;
import ch.qos.logback.core.encoder.Encoder;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.sluice.config.ConfigException;
import dev.sluice.config.LoggingSection;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.slf4j.LoggerFactory;
import org.slf4j.event.KeyValuePair;

/** The two log formats, and {@code logging} chosen and applied from the config. */
class LogSetupTest {
  private static final LoggerContext CONTEXT = (LoggerContext) LoggerFactory.getILoggerFactory();

  private static LoggingEvent event(Throwable error) {
    LoggingEvent event =
        new LoggingEvent(
            "test",
            CONTEXT.getLogger("sluice.access"),
            Level.INFO,
            "request for {}",
            error,
            new Object[] {"/api/catalog/v1/lake"});
    event.setTimeStamp(Instant.parse("2026-12-02T18:20:01.123Z").toEpochMilli());
    event.setMDCPropertyMap(Map.of("requestId", "r-1", "principal", ""));
    event.addKeyValuePair(new KeyValuePair("status", 200));
    event.addKeyValuePair(new KeyValuePair("durationMs", 2L));
    event.addKeyValuePair(new KeyValuePair("route", "/v1/{prefix}"));
    return event;
  }

  private static String encode(LoggingSection logging, boolean terminal, LoggingEvent event) {
    Encoder<ch.qos.logback.classic.spi.ILoggingEvent> encoder =
        LogSetup.encoder(logging, terminal, CONTEXT);
    return new String(encoder.encode(event), StandardCharsets.UTF_8);
  }

  @Test
  void jsonLinesHaveFlatCommonFieldsIsoTimesAndNumbersAsNumbers() throws Exception {
    String line = encode(new LoggingSection("json", null), true, event(null));

    assertThat(line).endsWith("}\n").doesNotContain("\\/").contains("/api/catalog/v1/lake");
    JsonNode json = new ObjectMapper().readTree(line);
    assertThat(json.get("@timestamp").asText()).isEqualTo("2026-12-02T18:20:01.123Z");
    assertThat(json.get("log.level").asText()).isEqualTo("INFO");
    assertThat(json.get("log.logger").asText()).isEqualTo("sluice.access");
    assertThat(json.get("message").asText()).isEqualTo("request for /api/catalog/v1/lake");
    assertThat(json.get("requestId").asText()).isEqualTo("r-1");
    assertThat(json.has("principal")).as("an empty field is left out").isFalse();
    assertThat(json.get("status").isIntegralNumber()).isTrue();
    assertThat(json.get("status").asInt()).isEqualTo(200);
    assertThat(json.get("durationMs").asLong()).isEqualTo(2);
    assertThat(json.get("route").asText()).isEqualTo("/v1/{prefix}");
    assertThat(json.has("error.type")).isFalse();
  }

  @Test
  void jsonLinesCarryAnExceptionAsErrorFields() throws Exception {
    JsonNode json =
        new ObjectMapper()
            .readTree(
                encode(
                    new LoggingSection("json", null),
                    false,
                    event(new IllegalStateException("the store is gone"))));

    assertThat(json.get("error.type").asText()).isEqualTo("java.lang.IllegalStateException");
    assertThat(json.get("error.message").asText()).isEqualTo("the store is gone");
    assertThat(json.get("error.stack_trace").asText()).contains("LogSetupTest");
  }

  @Test
  void textLinesAreForPeople() {
    String line = encode(new LoggingSection("text", null), false, event(null));

    assertThat(line)
        .matches(
            "2026-12-02T18:20:01\\.123Z INFO  s.access r-1- request for /api/catalog/v1/lake"
                + " status=200 durationMs=2 route=/v1/\\{prefix\\}\\n");
  }

  @Test
  void autoIsTextOnATerminalAndJsonElsewhere() {
    LoggingSection auto = LoggingSection.DEFAULT;
    assertThat(auto.format()).isEqualTo("auto");
    assertThat(auto.json(true)).isFalse();
    assertThat(auto.json(false)).isTrue();
    assertThat(encode(auto, false, event(null))).startsWith("{\"@timestamp\":");
    assertThat(encode(auto, true, event(null))).startsWith("2026-12-02T18:20:01.123Z INFO");
    assertThat(new LoggingSection("JSON", null).json(true)).isTrue();
  }

  @Test
  void badFormatsAndLevelsAreRefusedNamingTheKey() {
    assertThatThrownBy(() -> new LoggingSection("xml", null))
        .isInstanceOf(ConfigException.class)
        .hasMessage("logging.format must be auto, text or json, got xml");
    assertThatThrownBy(() -> new LoggingSection(null, Map.of("dev.sluice", "LOUD")))
        .isInstanceOf(ConfigException.class)
        .hasMessageContaining("logging.level.dev.sluice")
        .hasMessageContaining("LOUD");
  }

  @Test
  void levelsApplyToTheirLoggers() {
    ch.qos.logback.classic.Logger logger = CONTEXT.getLogger("dev.sluice.logsetuptest");
    Level before = logger.getLevel();
    try {
      LogSetup.apply(new LoggingSection("json", Map.of("dev.sluice.logsetuptest", "warn")), false);
      assertThat(logger.getLevel()).isEqualTo(Level.WARN);
      assertThat(logger.isInfoEnabled()).isFalse();
    } finally {
      logger.setLevel(before);
    }
  }
}
