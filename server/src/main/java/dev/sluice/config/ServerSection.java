package dev.sluice.config;

import static dev.sluice.config.Bounds.between;
import static dev.sluice.config.Bounds.orDefault;

import dev.sluice.tls.TrustedProxies;
import java.time.Duration;

/**
 * {@code server}: where and how the server listens, what one request may hold, and how long the
 * Iceberg routes keep what they remember (Idempotency-Key answers, serialized metadata). An absent
 * key (null here) takes its default; docs/CONFIGURATION.md lists each with its bounds.
 */
public record ServerSection(
    String host,
    Integer port,
    Integer metricsPort,
    Integer maxRequestBytes,
    Duration idempotencyKeyLifetime,
    Duration idempotencyReplayWait,
    MetadataCacheSection metadataCache,
    ScanPlanningSection scanPlanning,
    TlsSection tls,
    Boolean allowPlaintext,
    TrustedProxies trustedProxies,
    ServerLimits limits) {

  public static final ServerSection DEFAULT =
      new ServerSection(null, null, null, null, null, null, null, null, null, null, null, null);

  public ServerSection {
    host = orDefault(host, "127.0.0.1");
    if (host.isBlank()) {
      throw new ConfigException("server.host must not be empty");
    }
    port = orDefault(port, 8181);
    between("server.port", port, 0, 65535);
    // Absent: /metrics is served on server.port. Set: only there, over plaintext (scrapes carry no
    // names or secrets), so the catalog port can stay closed to the monitoring network.
    if (metricsPort != null) {
      between("server.metricsPort", metricsPort, 0, 65535);
      if (metricsPort != 0 && metricsPort.equals(port)) {
        throw new ConfigException(
            "server.metricsPort must differ from server.port, both are " + port);
      }
    }
    maxRequestBytes = orDefault(maxRequestBytes, 8 * 1024 * 1024);
    if (maxRequestBytes < 1024) {
      throw new ConfigException(
          "server.maxRequestBytes must be at least 1024, got " + maxRequestBytes);
    }
    // Advertised in /v1/config: clients may retry a commit with the same key within it.
    idempotencyKeyLifetime = orDefault(idempotencyKeyLifetime, Duration.ofMinutes(30));
    between(
        "server.idempotencyKeyLifetime",
        idempotencyKeyLifetime,
        Duration.ofMinutes(1),
        Duration.ofDays(7));
    // A retry that arrives while the first attempt still runs waits this long for its answer.
    idempotencyReplayWait = orDefault(idempotencyReplayWait, Duration.ofSeconds(10));
    between(
        "server.idempotencyReplayWait",
        idempotencyReplayWait,
        Duration.ofSeconds(1),
        Duration.ofMinutes(5));
    metadataCache = orDefault(metadataCache, MetadataCacheSection.DEFAULT);
    scanPlanning = orDefault(scanPlanning, ScanPlanningSection.DEFAULT);
    allowPlaintext = orDefault(allowPlaintext, false);
    trustedProxies = orDefault(trustedProxies, TrustedProxies.NONE);
    limits = orDefault(limits, ServerLimits.DEFAULT);
    limits.requireRoomFor(maxRequestBytes);
    PlaintextBind.requireSafeBind(host, tls != null, allowPlaintext);
  }
}
