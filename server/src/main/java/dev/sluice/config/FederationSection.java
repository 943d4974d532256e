package dev.sluice.config;

import static dev.sluice.config.Bounds.between;
import static dev.sluice.config.Bounds.orDefault;

import java.time.Duration;
import java.util.Map;
import java.util.TreeMap;

/**
 * {@code federation}: what federated ({@code EXTERNAL}) catalogs need from the operator: the
 * secrets their connections name ({@code secrets}: reference name → the OAuth client secret or the
 * bearer token; never in the API), how long a call to a remote catalog may take ({@code
 * remoteTimeouts}), and how many names one remote listing may hold in memory ({@code
 * maxListedNames}).
 */
public record FederationSection(
    @Secret Map<String, String> secrets, RemoteTimeouts remoteTimeouts, Integer maxListedNames) {
  public static final FederationSection DEFAULT = new FederationSection(null, null, null);

  public FederationSection {
    Map<String, String> checked = new TreeMap<>();
    orDefault(secrets, Map.<String, String>of())
        .forEach(
            (name, value) -> {
              if (name == null || name.isBlank()) {
                throw new ConfigException("federation.secrets: a secret needs a name");
              }
              if (value == null || value.isEmpty()) {
                // The value is a secret: only its name is said.
                throw new ConfigException("federation.secrets." + name + " must not be empty");
              }
              checked.put(name, value);
            });
    secrets = Map.copyOf(checked);
    remoteTimeouts = orDefault(remoteTimeouts, RemoteTimeouts.DEFAULT);
    maxListedNames = orDefault(maxListedNames, 100_000);
    between("federation.maxListedNames", maxListedNames, 1_000, 10_000_000);
  }

  /**
   * {@code federation.remoteTimeouts}: connecting to a remote catalog ({@code connect}) and waiting
   * for one answer of it ({@code request}); a remote beyond either is unavailable (503).
   */
  public record RemoteTimeouts(Duration connect, Duration request) {
    public static final RemoteTimeouts DEFAULT = new RemoteTimeouts(null, null);

    public RemoteTimeouts {
      connect = orDefault(connect, Duration.ofSeconds(5));
      request = orDefault(request, Duration.ofSeconds(30));
      between(
          "federation.remoteTimeouts.connect",
          connect,
          Duration.ofMillis(100),
          Duration.ofMinutes(1));
      between(
          "federation.remoteTimeouts.request",
          request,
          Duration.ofSeconds(1),
          Duration.ofMinutes(10));
    }
  }

  @Override
  public String toString() {
    return Redacted.toString(this);
  }
}
