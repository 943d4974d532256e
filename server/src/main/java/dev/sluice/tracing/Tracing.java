package dev.sluice.tracing;

import static java.util.Objects.requireNonNull;

import dev.sluice.config.TracingSection;
import io.opentelemetry.api.OpenTelemetry;
import io.opentelemetry.api.common.AttributeKey;
import io.opentelemetry.api.common.Attributes;
import io.opentelemetry.api.trace.Tracer;
import io.opentelemetry.api.trace.propagation.W3CTraceContextPropagator;
import io.opentelemetry.context.propagation.TextMapPropagator;
import io.opentelemetry.exporter.otlp.http.trace.OtlpHttpSpanExporter;
import io.opentelemetry.sdk.resources.Resource;
import io.opentelemetry.sdk.trace.SdkTracerProvider;
import io.opentelemetry.sdk.trace.SpanProcessor;
import io.opentelemetry.sdk.trace.export.BatchSpanProcessor;
import io.opentelemetry.sdk.trace.export.SimpleSpanProcessor;
import io.opentelemetry.sdk.trace.export.SpanExporter;
import io.opentelemetry.sdk.trace.samplers.Sampler;
import java.util.concurrent.TimeUnit;

/**
 * The server's OpenTelemetry tracer ({@code tracing}), injected where spans are made: off (a no-op
 * tracer, whose spans cost an allocation and record nothing), or an SDK tracer exporting by OTLP
 * over HTTP in batches. Propagation is W3C Trace Context ({@code traceparent}) only. Nothing here
 * is global: {@code GlobalOpenTelemetry} is left alone, so libraries that read it stay untraced.
 */
public final class Tracing implements AutoCloseable {
  private static final String SCOPE = "dev.sluice";
  private static final AttributeKey<String> SERVICE_NAME = AttributeKey.stringKey("service.name");
  private static final AttributeKey<String> SERVICE_VERSION =
      AttributeKey.stringKey("service.version");

  private final Tracer tracer;
  private final SdkTracerProvider provider; // null when off

  private Tracing(Tracer tracer, SdkTracerProvider provider) {
    this.tracer = tracer;
    this.provider = provider;
  }

  /** No tracing. */
  public static Tracing off() {
    return new Tracing(OpenTelemetry.noop().getTracer(SCOPE), null);
  }

  /** As {@code section} says: off, or OTLP over HTTP to its endpoint. */
  public static Tracing of(TracingSection section, String version) {
    requireNonNull(section, "section");
    if (!section.enabled()) {
      return off();
    }
    SpanExporter otlp = OtlpHttpSpanExporter.builder().setEndpoint(section.endpoint()).build();
    return sdk(
        BatchSpanProcessor.builder(otlp).build(),
        section.serviceName(),
        version,
        section.samplePercent());
  }

  /** Every span exported as it ends, to {@code exporter}: for tests (an in-memory exporter). */
  public static Tracing exportingTo(SpanExporter exporter, String version) {
    return sdk(SimpleSpanProcessor.create(exporter), "sluice", version, 100);
  }

  private static Tracing sdk(
      SpanProcessor processor, String serviceName, String version, int samplePercent) {
    SdkTracerProvider provider =
        SdkTracerProvider.builder()
            .setResource(
                Resource.getDefault()
                    .merge(
                        Resource.create(
                            Attributes.of(
                                SERVICE_NAME,
                                serviceName,
                                SERVICE_VERSION,
                                requireNonNull(version, "version")))))
            // A parent's decision (sampled upstream or not) is kept; new traces by ratio.
            .setSampler(Sampler.parentBased(Sampler.traceIdRatioBased(samplePercent / 100.0)))
            .addSpanProcessor(processor)
            .build();
    return new Tracing(provider.get(SCOPE), provider);
  }

  /** False when off: callers may then skip the work of making spans at all. */
  public boolean enabled() {
    return provider != null;
  }

  public Tracer tracer() {
    return tracer;
  }

  /** W3C Trace Context: {@code traceparent} and {@code tracestate}. */
  public TextMapPropagator propagator() {
    return W3CTraceContextPropagator.getInstance();
  }

  /** Exports what has ended and stops; at most 5 s. */
  @Override
  public void close() {
    if (provider != null) {
      provider.shutdown().join(5, TimeUnit.SECONDS);
    }
  }
}
