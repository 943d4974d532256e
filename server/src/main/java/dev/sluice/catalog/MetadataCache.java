package dev.sluice.catalog;

import static java.util.Objects.requireNonNull;

import com.github.benmanes.caffeine.cache.Cache;
import com.github.benmanes.caffeine.cache.Caffeine;
import java.time.Duration;
import java.util.function.Function;
import org.apache.iceberg.TableMetadata;
import org.apache.iceberg.TableMetadataParser;
import org.apache.iceberg.catalog.TableIdentifier;
import org.apache.iceberg.io.FileIO;

/**
 * Parsed table metadata. A metadata file is immutable once written (every commit writes a new,
 * uniquely named one), so an entry can never be stale: the store still decides, on every load,
 * which file is current.
 *
 * <p>Two caches. Files read back are kept by location. Versions this server wrote are kept by
 * table, latest only: every commit writes a new location, which a frequency-based cache (Caffeine's
 * TinyLFU) admits against older entries only when the new key has been seen as often. So, keyed by
 * location, the version a commit just wrote was often refused and the next commit parsed its file
 * again (174 of 300 at 2,000 snapshots); keyed by table, the key stays hot across commits.
 *
 * <p>Both are bounded by weight, not entry count: a table with thousands of snapshots costs
 * thousands of times what a fresh one does. An entry weighs one unit per snapshot and metadata-log
 * entry (plus one); a unit stands for about a kilobyte of heap.
 */
public final class MetadataCache {
  /** A table of a catalog. */
  public record TableKey(String catalog, TableIdentifier table) {
    public TableKey {
      requireNonNull(catalog, "catalog");
      requireNonNull(table, "table");
    }
  }

  private record Written(String location, TableMetadata metadata) {}

  private final Cache<String, TableMetadata> read;
  private final Cache<TableKey, Written> written;

  /**
   * The JSON of metadata files this server just wrote, for the answer of the commit that wrote them
   * (a load serializes and caches its own, in {@code LoadTableBody}): short-lived.
   */
  private final Cache<String, byte[]> writtenJson;

  /**
   * {@code maxUnits}: the bound on each metadata cache's weight (see above); {@code maxJsonBytes}:
   * on the written JSON kept for commits' answers.
   */
  public MetadataCache(long maxUnits, long maxJsonBytes, Duration idle) {
    this.read =
        Caffeine.newBuilder()
            .maximumWeight(maxUnits)
            .weigher((String location, TableMetadata m) -> weight(m))
            .expireAfterAccess(idle)
            // Evict on the writer's thread: the bound holds as soon as a put has returned.
            .executor(Runnable::run)
            .build();
    this.written =
        Caffeine.newBuilder()
            .maximumWeight(maxUnits)
            .weigher((TableKey table, Written w) -> weight(w.metadata()))
            .expireAfterAccess(idle)
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

  /** Sized to the heap: a sixteenth of it for each metadata cache, 1/32 for written JSON. */
  public static MetadataCache forHeap(long maxHeapBytes, Duration idle) {
    return new MetadataCache(
        Math.max(5_000, maxHeapBytes / 16 / 1024), Math.max(4 << 20, maxHeapBytes / 32), idle);
  }

  static int weight(TableMetadata m) {
    return 1 + m.snapshots().size() + m.previousFiles().size();
  }

  /** The metadata of {@code table} parsed from {@code location}, if it is cached. */
  TableMetadata cached(TableKey table, String location) {
    TableMetadata mine = writtenAt(table, location);
    return mine != null ? mine : read.getIfPresent(location);
  }

  /** The version this server wrote for {@code table}, if it is the one at {@code location}. */
  private TableMetadata writtenAt(TableKey table, String location) {
    Written w = written.getIfPresent(table);
    return w != null && w.location().equals(location) ? w.metadata() : null;
  }

  /**
   * Keeps {@code metadata}, which this server just wrote to {@code location} as {@code table}'s
   * next version, as if it had been read back: the refresh after a commit, and the next commit,
   * then find it instead of parsing the file again. It is the same value a parse would give
   * (Iceberg's REST client builds its table the same way: no pending changes, the file's location,
   * the same last-updated time and metadata log). {@code json}, when not null, is the file's
   * content as written: the commit's answer embeds it.
   */
  void remember(TableKey table, String location, TableMetadata metadata, byte[] json) {
    if (json != null) {
      writtenJson.put(location, json);
    }
    written.put(
        table,
        new Written(
            location,
            TableMetadata.buildFrom(metadata)
                .discardChanges()
                .withMetadataLocation(location)
                .build()));
  }

  /**
   * The JSON of a metadata file this server wrote in the last minute, or null; taken, not read: it
   * serves the one answer of the commit that wrote it. Each commit's file is a new key, which a
   * frequency-based cache refuses once full; taking keeps this one nearly empty, so it never is.
   */
  public byte[] takeWrittenJson(String location) {
    return writtenJson.asMap().remove(location);
  }

  /**
   * A loader for {@code table}'s {@code refreshFromMetadataLocation}, reading through {@code io} on
   * a miss.
   */
  Function<String, TableMetadata> loader(TableKey table, FileIO io) {
    return location -> {
      TableMetadata mine = writtenAt(table, location);
      return mine != null ? mine : read.get(location, l -> TableMetadataParser.read(io, l));
    };
  }
}
