package dev.sluice.catalog;

import com.github.benmanes.caffeine.cache.Cache;
import com.github.benmanes.caffeine.cache.Caffeine;
import java.time.Duration;
import java.util.function.Function;
import org.apache.iceberg.TableMetadata;
import org.apache.iceberg.TableMetadataParser;
import org.apache.iceberg.io.FileIO;

/**
 * Parsed table metadata by metadata-file location. A metadata file is immutable once written (every
 * commit writes a new, uniquely named one), so an entry can never be stale: the store still
 * decides, on every load, which file is current. Bounded by weight and idle time.
 *
 * <p>Weight, not entry count: a table with thousands of snapshots costs thousands of times what a
 * fresh one does, and every commit adds an entry (the version it wrote). An entry weighs one unit
 * per snapshot and metadata-log entry (plus one); a unit stands for about a kilobyte of heap, which
 * overestimates versions a commit derived from a cached one (they share their snapshot objects).
 */
public final class MetadataCache {
  private final Cache<String, TableMetadata> cache;

  /**
   * The JSON of metadata files this server just wrote, for the answer of the commit that wrote them
   * (a load serializes and caches its own, in {@code LoadTableBody}): short-lived and small.
   */
  private final Cache<String, byte[]> writtenJson;

  /**
   * {@code maxUnits}: the bound on the parsed entries' weight (see above); {@code maxJsonBytes}: on
   * the written JSON kept for commits' answers.
   */
  public MetadataCache(long maxUnits, long maxJsonBytes, Duration idle) {
    this.cache =
        Caffeine.newBuilder()
            .maximumWeight(maxUnits)
            .weigher((String location, TableMetadata m) -> weight(m))
            .expireAfterAccess(idle)
            // Evict on the writer's thread: the bound holds as soon as a commit has returned.
            .executor(Runnable::run)
            .build();
    this.writtenJson =
        Caffeine.newBuilder()
            .maximumWeight(maxJsonBytes)
            .weigher((String location, byte[] json) -> json.length)
            .expireAfterWrite(Duration.ofMinutes(1))
            .executor(Runnable::run)
            .build();
  }

  /** Sized to the heap: an eighth of it for parsed metadata, 1/32 for written JSON. */
  public static MetadataCache forHeap(long maxHeapBytes, Duration idle) {
    return new MetadataCache(
        Math.max(10_000, maxHeapBytes / 8 / 1024), Math.max(4 << 20, maxHeapBytes / 32), idle);
  }

  static int weight(TableMetadata m) {
    return 1 + m.snapshots().size() + m.previousFiles().size();
  }

  /** The metadata parsed from {@code location}, if it is cached. */
  TableMetadata cached(String location) {
    return cache.getIfPresent(location);
  }

  /**
   * Keeps {@code written}, the metadata this server just wrote to {@code location}, as if it had
   * been read back: the refresh after a commit then finds it instead of parsing the file again. It
   * is the same value a parse would give (Iceberg's REST client builds its table the same way: no
   * pending changes, the file's location, the same last-updated time and metadata log). {@code
   * json}, when not null, is the file's content as written: the commit's answer embeds it.
   */
  void remember(String location, TableMetadata written, byte[] json) {
    if (json != null) {
      writtenJson.put(location, json);
    }
    cache.put(
        location,
        TableMetadata.buildFrom(written).discardChanges().withMetadataLocation(location).build());
  }

  /** The JSON of a metadata file this server wrote in the last minute, or null. */
  public byte[] writtenJson(String location) {
    return writtenJson.getIfPresent(location);
  }

  /** A loader for {@code refreshFromMetadataLocation}, reading through {@code io} on a miss. */
  Function<String, TableMetadata> loader(FileIO io) {
    return location -> cache.get(location, l -> TableMetadataParser.read(io, l));
  }
}
