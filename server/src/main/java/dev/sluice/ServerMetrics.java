package dev.sluice;

import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.binder.jvm.ClassLoaderMetrics;
import io.micrometer.core.instrument.binder.jvm.JvmGcMetrics;
import io.micrometer.core.instrument.binder.jvm.JvmMemoryMetrics;
import io.micrometer.core.instrument.binder.jvm.JvmThreadMetrics;
import io.micrometer.core.instrument.binder.system.FileDescriptorMetrics;
import io.micrometer.core.instrument.binder.system.ProcessorMetrics;
import io.micrometer.core.instrument.binder.system.UptimeMetrics;
import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;

/**
 * The registry {@code /metrics} serves, with what an on-call engineer expects beside Sluice's own
 * meters: JVM memory, GC, threads and class loading, process CPU, uptime and file descriptors
 * (Micrometer's binders), and {@code sluice_build_info{version}}. The store binds its pool ({@code
 * hikaricp_*}), HTTP its requests and vending its meters, each where it is built.
 */
final class ServerMetrics implements AutoCloseable {
  private final PrometheusMeterRegistry registry =
      new PrometheusMeterRegistry(PrometheusConfig.DEFAULT);
  private final JvmGcMetrics gc = new JvmGcMetrics();

  ServerMetrics() {
    new JvmMemoryMetrics().bindTo(registry);
    gc.bindTo(registry);
    new JvmThreadMetrics().bindTo(registry);
    new ClassLoaderMetrics().bindTo(registry);
    new ProcessorMetrics().bindTo(registry);
    new UptimeMetrics().bindTo(registry);
    new FileDescriptorMetrics().bindTo(registry);
    Gauge.builder("sluice.build.info", () -> 1)
        .description("The build this server runs: always 1, its version a label")
        .tag("version", BuildInfo.version())
        .register(registry);
  }

  PrometheusMeterRegistry registry() {
    return registry;
  }

  @Override
  public void close() {
    gc.close(); // its GC notification listeners
    registry.close();
  }
}
