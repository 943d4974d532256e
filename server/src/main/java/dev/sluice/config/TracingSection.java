package dev.sluice.config;

import static dev.sluice.config.Bounds.between;
import static dev.sluice.config.Bounds.orDefault;

import java.net.URI;
import java.util.Locale;

/**
 * {@code tracing}: OpenTelemetry traces, off by default. When on, each request is a span (its
 * parent taken from a W3C {@code traceparent} header), with child spans for the store's queries,
 * credential-provider calls and the catalog's own metadata-file reads and writes, sent by OTLP over
 * HTTP to {@code endpoint}; {@code samplePercent} of the traces that start here are kept (a trace
 * whose parent was sampled elsewhere follows that decision).
 */
public record TracingSection(
    Boolean enabled, String endpoint, String serviceName, Integer samplePercent) {
  public static final TracingSection DEFAULT = new TracingSection(null, null, null, null);

  public TracingSection {
    enabled = orDefault(enabled, false);
    endpoint = orDefault(endpoint, "http://localhost:4318/v1/traces");
    URI uri;
    try {
      uri = URI.create(endpoint);
    } catch (IllegalArgumentException e) {
      throw new ConfigException("tracing.endpoint is not a URL: " + endpoint);
    }
    String scheme = uri.getScheme() == null ? "" : uri.getScheme().toLowerCase(Locale.ROOT);
    if (!scheme.equals("http") && !scheme.equals("https") || uri.getHost() == null) {
      throw new ConfigException(
          "tracing.endpoint must be an http(s) URL of an OTLP collector, got " + endpoint);
    }
    serviceName = orDefault(serviceName, "sluice");
    if (serviceName.isBlank()) {
      throw new ConfigException("tracing.serviceName must not be blank");
    }
    samplePercent = orDefault(samplePercent, 100);
    between("tracing.samplePercent", samplePercent, 0, 100);
  }
}
