package dev.sluice.vending;

import static java.util.Objects.requireNonNull;

import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Tags;
import io.micrometer.core.instrument.Timer;
import java.time.Duration;

/**
 * Where a vendor records its own measurements, under the shared naming scheme {@code
 * sluice.vending.*} with a {@code backend} tag ({@code sluice_vending_*{backend="s3"}} in
 * Prometheus). The service counts calls, hits, misses and errors; a vendor times its provider and
 * may add meters of its own with {@link #name} and {@link #tags}.
 */
public final class VendorMetrics {
  private final MeterRegistry registry;
  private final Tags tags;
  private final Timer providerLatency;

  public VendorMetrics(MeterRegistry registry, String backend) {
    this.registry = requireNonNull(registry, "registry");
    this.tags = Tags.of("backend", requireNonNull(backend, "backend"));
    this.providerLatency =
        Timer.builder(name("provider.latency"))
            .description("Time the backend's credential provider took to answer")
            .tags(tags)
            .register(registry);
  }

  /**
   * The full meter name for {@code suffix} ({@code provider.latency} → {@code
   * sluice.vending.provider.latency}).
   */
  public static String name(String suffix) {
    return "sluice.vending." + suffix;
  }

  public Tags tags() {
    return tags;
  }

  public MeterRegistry registry() {
    return registry;
  }

  /** Records one call to the provider (STS, Google's token exchange, ...), failed or not. */
  public void providerCall(Duration latency) {
    providerLatency.record(latency);
  }
}
