package dev.sluice.config;

import static dev.sluice.config.Bounds.between;
import static dev.sluice.config.Bounds.orDefault;

import java.time.Duration;

/**
 * {@code server.metadataCache}: the serialized table metadata kept in memory for loads, so that a
 * load of an unchanged table does not serialize it again. Bounded in bytes (entries weigh their
 * JSON's length); an entry no load read for {@code idleLifetime} is dropped.
 */
public record MetadataCacheSection(Long maxBytes, Duration idleLifetime) {
  public static final MetadataCacheSection DEFAULT = new MetadataCacheSection(null, null);

  public MetadataCacheSection {
    maxBytes = orDefault(maxBytes, 64L << 20);
    between("server.metadataCache.maxBytes", maxBytes, 1L << 20, 64L << 30);
    idleLifetime = orDefault(idleLifetime, Duration.ofMinutes(10));
    between(
        "server.metadataCache.idleLifetime",
        idleLifetime,
        Duration.ofSeconds(1),
        Duration.ofHours(24));
  }
}
