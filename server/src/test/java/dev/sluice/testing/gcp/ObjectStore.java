package dev.sluice.testing.gcp;

import static java.util.Objects.requireNonNull;

import java.nio.ByteBuffer;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.time.Clock;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentSkipListMap;
import java.util.concurrent.atomic.AtomicLong;
import java.util.zip.CRC32C;

/** The fake's buckets and their live objects (no versioning); thread-safe. */
final class ObjectStore {
  /** One object version: its bytes and the metadata the JSON API reports. */
  record StoredObject(
      String bucket,
      String name,
      byte[] data,
      long generation,
      long metageneration,
      String contentType,
      Instant created,
      String crc32c,
      String md5) {
    StoredObject {
      requireNonNull(bucket, "bucket");
      requireNonNull(name, "name");
      requireNonNull(data, "data");
      requireNonNull(contentType, "contentType");
      requireNonNull(created, "created");
    }
  }

  /**
   * The ifGeneration... and ifMetageneration... query parameters of a request (null when absent).
   */
  record Preconditions(
      Long ifGenerationMatch,
      Long ifGenerationNotMatch,
      Long ifMetagenerationMatch,
      Long ifMetagenerationNotMatch) {
    static final Preconditions NONE = new Preconditions(null, null, null, null);

    static Preconditions of(Map<String, String> query) {
      return new Preconditions(
          number(query, "ifGenerationMatch"),
          number(query, "ifGenerationNotMatch"),
          number(query, "ifMetagenerationMatch"),
          number(query, "ifMetagenerationNotMatch"));
    }

    /** Whether the preconditions hold for {@code current} (null when there is no object). */
    boolean holdFor(StoredObject current) {
      long generation = current == null ? 0 : current.generation();
      if (ifGenerationMatch != null && ifGenerationMatch != generation) {
        return false;
      }
      if (ifGenerationNotMatch != null && ifGenerationNotMatch == generation) {
        return false;
      }
      if (current == null) {
        return ifMetagenerationMatch == null;
      }
      return (ifMetagenerationMatch == null || ifMetagenerationMatch == current.metageneration())
          && (ifMetagenerationNotMatch == null
              || ifMetagenerationNotMatch != current.metageneration());
    }

    private static Long number(Map<String, String> query, String name) {
      String value = query.get(name);
      if (value == null) {
        return null;
      }
      try {
        return Long.parseLong(value);
      } catch (NumberFormatException e) {
        throw GcsError.badRequest("Invalid argument " + name + "=" + value);
      }
    }
  }

  /** GCS bucket names: 3 to 63 characters (222 with dots), lowercase, digits, '-', '_', '.'. */
  static final String BUCKET_NAME = "[a-z0-9][a-z0-9._-]{1,220}[a-z0-9]";

  private final Map<String, ConcurrentSkipListMap<String, StoredObject>> buckets =
      new ConcurrentHashMap<>();
  private final Clock clock;
  // Generations are microsecond timestamps in GCS; strictly increasing here.
  private final AtomicLong lastGeneration;

  ObjectStore(Clock clock) {
    this.clock = requireNonNull(clock, "clock");
    this.lastGeneration = new AtomicLong(clock.millis() * 1000);
  }

  void createBucket(String bucket) {
    if (!requireNonNull(bucket, "bucket").matches(BUCKET_NAME)) {
      throw new IllegalArgumentException("not a GCS bucket name: " + bucket);
    }
    buckets.putIfAbsent(bucket, new ConcurrentSkipListMap<>());
  }

  boolean bucketExists(String bucket) {
    return buckets.containsKey(bucket);
  }

  Optional<StoredObject> get(String bucket, String name) {
    return Optional.ofNullable(bucket(bucket).get(name));
  }

  /** Stores a new generation of {@code name} if {@code conditions} hold (else 412). */
  StoredObject put(
      String bucket, String name, byte[] data, String contentType, Preconditions conditions) {
    StoredObject[] stored = new StoredObject[1];
    bucket(bucket)
        .compute(
            name,
            (key, current) -> {
              if (!conditions.holdFor(current)) {
                throw GcsError.preconditionFailed();
              }
              stored[0] =
                  new StoredObject(
                      bucket,
                      name,
                      data.clone(),
                      nextGeneration(),
                      1,
                      contentType == null ? "application/octet-stream" : contentType,
                      clock.instant(),
                      crc32c(data),
                      md5(data));
              return stored[0];
            });
    return stored[0];
  }

  /** Deletes {@code name} (the given generation if not null); false when there is none. */
  boolean delete(String bucket, String name, Long generation, Preconditions conditions) {
    boolean[] deleted = new boolean[1];
    bucket(bucket)
        .computeIfPresent(
            name,
            (key, current) -> {
              if (generation != null && generation != current.generation()) {
                return current;
              }
              if (!conditions.holdFor(current)) {
                throw GcsError.preconditionFailed();
              }
              deleted[0] = true;
              return null;
            });
    return deleted[0];
  }

  /** Objects whose names start with {@code prefix}, in name order, after {@code startAfter}. */
  List<StoredObject> list(String bucket, String prefix, String startAfter) {
    ConcurrentSkipListMap<String, StoredObject> objects = bucket(bucket);
    // Names sharing a prefix are contiguous in name order, starting at the prefix itself.
    var from =
        startAfter != null && startAfter.compareTo(prefix) >= 0
            ? objects.tailMap(startAfter, false)
            : objects.tailMap(prefix, true);
    List<StoredObject> matching = new ArrayList<>();
    for (StoredObject object : from.values()) {
      if (!object.name().startsWith(prefix)) {
        break;
      }
      matching.add(object);
    }
    return matching;
  }

  private ConcurrentSkipListMap<String, StoredObject> bucket(String bucket) {
    ConcurrentSkipListMap<String, StoredObject> objects = buckets.get(bucket);
    if (objects == null) {
      throw GcsError.notFound("The specified bucket does not exist.");
    }
    return objects;
  }

  private long nextGeneration() {
    long now = clock.millis() * 1000;
    return lastGeneration.updateAndGet(last -> Math.max(last + 1, now));
  }

  /** GCS's crc32c field: base64 of the big-endian CRC32C. */
  static String crc32c(byte[] data) {
    CRC32C crc = new CRC32C();
    crc.update(data);
    return Base64.getEncoder()
        .encodeToString(ByteBuffer.allocate(4).putInt((int) crc.getValue()).array());
  }

  static String md5(byte[] data) {
    try {
      return Base64.getEncoder().encodeToString(MessageDigest.getInstance("MD5").digest(data));
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException(e);
    }
  }
}
