package dev.sluice;

import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.classic.spi.IThrowableProxy;
import ch.qos.logback.classic.spi.ThrowableProxyUtil;
import ch.qos.logback.core.encoder.EncoderBase;
import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonGenerator;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.time.Instant;
import java.util.Map;
import org.slf4j.event.KeyValuePair;

/**
 * One JSON object per log line, in the Elastic Common Schema's flat dotted names that log shippers
 * map without configuration: {@code @timestamp} (ISO-8601 UTC), {@code log.level}, {@code
 * log.logger}, {@code process.thread.name}, {@code message}, then the request's context ({@code
 * requestId}, {@code principal}) and the event's key-value pairs as fields of their own (numbers as
 * numbers), and {@code error.*} for an exception. Absent fields are left out, never empty.
 */
public final class JsonLogEncoder extends EncoderBase<ILoggingEvent> {
  private static final JsonFactory JSON = new JsonFactory();
  private static final byte[] NOTHING = new byte[0];

  @Override
  public byte[] headerBytes() {
    return NOTHING;
  }

  @Override
  public byte[] footerBytes() {
    return NOTHING;
  }

  @Override
  public byte[] encode(ILoggingEvent event) {
    ByteArrayOutputStream out = new ByteArrayOutputStream(256);
    try (JsonGenerator json = JSON.createGenerator(out)) {
      json.writeStartObject();
      json.writeStringField("@timestamp", Instant.ofEpochMilli(event.getTimeStamp()).toString());
      json.writeStringField("log.level", event.getLevel().toString());
      json.writeStringField("log.logger", event.getLoggerName());
      json.writeStringField("process.thread.name", event.getThreadName());
      json.writeStringField("message", event.getFormattedMessage());
      for (Map.Entry<String, String> context : event.getMDCPropertyMap().entrySet()) {
        if (context.getValue() != null && !context.getValue().isEmpty()) {
          json.writeStringField(context.getKey(), context.getValue());
        }
      }
      if (event.getKeyValuePairs() != null) {
        for (KeyValuePair pair : event.getKeyValuePairs()) {
          writeValue(json, pair.key, pair.value);
        }
      }
      IThrowableProxy error = event.getThrowableProxy();
      if (error != null) {
        json.writeStringField("error.type", error.getClassName());
        if (error.getMessage() != null) {
          json.writeStringField("error.message", error.getMessage());
        }
        json.writeStringField("error.stack_trace", ThrowableProxyUtil.asString(error));
      }
      json.writeEndObject();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    out.write('\n');
    return out.toByteArray();
  }

  private static void writeValue(JsonGenerator json, String key, Object value) throws IOException {
    if (value == null) {
      return;
    }
    if (value instanceof Integer || value instanceof Long || value instanceof Short) {
      json.writeNumberField(key, ((Number) value).longValue());
    } else if (value instanceof Double || value instanceof Float) {
      json.writeNumberField(key, ((Number) value).doubleValue());
    } else if (value instanceof Boolean b) {
      json.writeBooleanField(key, b);
    } else {
      json.writeStringField(key, value.toString());
    }
  }
}
