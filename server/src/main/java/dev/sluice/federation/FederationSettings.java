package dev.sluice.federation;

import static java.util.Objects.requireNonNull;

import java.time.Duration;
import java.util.Map;
import java.util.Optional;

/**
 * What the server's YAML gives federated catalogs ({@code federation}): the secrets connections
 * name by reference, the bounds of each remote call, and the most names one remote listing may
 * hold. {@link #toString} never shows a secret.
 */
public final class FederationSettings {
  private final Map<String, String> secrets;
  private final Duration connectTimeout;
  private final Duration requestTimeout;
  private final int maxListedNames;

  public FederationSettings(
      Map<String, String> secrets,
      Duration connectTimeout,
      Duration requestTimeout,
      int maxListedNames) {
    this.secrets = Map.copyOf(requireNonNull(secrets, "secrets"));
    this.connectTimeout = requireNonNull(connectTimeout, "connectTimeout");
    this.requestTimeout = requireNonNull(requestTimeout, "requestTimeout");
    if (maxListedNames < 1) {
      throw new IllegalArgumentException("maxListedNames must be positive: " + maxListedNames);
    }
    this.maxListedNames = maxListedNames;
  }

  /** No secrets, the default bounds: for tests and servers that federate nothing. */
  public static FederationSettings defaults() {
    return new FederationSettings(Map.of(), Duration.ofSeconds(5), Duration.ofSeconds(30), 100_000);
  }

  /** The secret {@code reference} names, if the YAML defines it. */
  Optional<String> secret(String reference) {
    return Optional.ofNullable(secrets.get(reference));
  }

  /** True when the YAML defines a secret named {@code reference} (its value is not told). */
  public boolean definesSecret(String reference) {
    return secrets.containsKey(reference);
  }

  Duration connectTimeout() {
    return connectTimeout;
  }

  Duration requestTimeout() {
    return requestTimeout;
  }

  int maxListedNames() {
    return maxListedNames;
  }

  @Override
  public String toString() {
    return "FederationSettings[secrets="
        + secrets.keySet()
        + ", connectTimeout="
        + connectTimeout
        + ", requestTimeout="
        + requestTimeout
        + ", maxListedNames="
        + maxListedNames
        + "]";
  }
}
