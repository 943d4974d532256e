package dev.sluice.http;

import static java.util.Objects.requireNonNull;

import com.fasterxml.jackson.core.JsonGenerator;
import com.github.benmanes.caffeine.cache.Cache;
import com.github.benmanes.caffeine.cache.Caffeine;
import dev.sluice.operations.SnapshotsMode;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.time.Duration;
import java.util.function.Function;
import org.apache.iceberg.TableMetadataParser;
import org.apache.iceberg.rest.credentials.Credential;
import org.apache.iceberg.rest.credentials.CredentialParser;
import org.apache.iceberg.rest.responses.LoadTableResponse;
import org.apache.iceberg.util.JsonUtil;

/**
 * Writes a {@link LoadTableResponse} as Iceberg's {@code LoadTableResponseParser} does, byte for
 * byte, but with the {@code metadata} member taken from a cache of serialized metadata. A metadata
 * file is immutable once written, so its JSON is keyed by its location and the {@link
 * SnapshotsMode} it is written in; the per-caller parts (config, storage credentials) are written
 * fresh each time. Serializing the metadata was the largest single cost of a table load.
 */
final class LoadTableBody {
  /** The value written in the metadata's place, then replaced by the metadata's bytes. */
  private static final String PLACEHOLDER = "0";

  private final Cache<Key, byte[]> metadataJson;

  /** One metadata file as one snapshots mode writes it. */
  private record Key(String location, SnapshotsMode mode) {}

  /** The JSON of a metadata file this server has just written, by location, or null. */
  private final Function<String, byte[]> written;

  LoadTableBody(long maxBytes, Duration idle) {
    this(maxBytes, idle, location -> null);
  }

  LoadTableBody(long maxBytes, Duration idle, Function<String, byte[]> written) {
    this.written = requireNonNull(written, "written");
    this.metadataJson =
        Caffeine.newBuilder()
            .maximumWeight(maxBytes)
            .weigher((Key key, byte[] json) -> 2 * key.location().length() + json.length)
            .expireAfterAccess(idle)
            .build();
  }

  /** {@code response} with all its snapshots. */
  byte[] toJson(LoadTableResponse response) {
    return toJson(response, SnapshotsMode.ALL);
  }

  /**
   * The answer of a create, register or commit: the metadata it just wrote, not kept for loads.
   * Kept, every commit put its whole metadata into the cache, where it outlived a few young
   * collections, was copied into the old generation and evicted from it (issue 42: on a table of
   * 2,000 snapshots, a megabyte per commit); the first load of that version serializes it once.
   */
  byte[] mutationAnswer(LoadTableResponse response) {
    return withMetadata(response, serialize(response, SnapshotsMode.ALL));
  }

  /**
   * {@code response}, whose metadata is complete, with the snapshots {@code mode} returns. The
   * members around the metadata are written by Jackson with a one-byte placeholder in its place,
   * which is then replaced: the metadata (up to megabytes on a table with thousands of snapshots)
   * is copied once, into the answer, and never turned into a String (issue 42: the copies were most
   * of a commit's garbage).
   */
  byte[] toJson(LoadTableResponse response, SnapshotsMode mode) {
    String location = response.metadataLocation();
    // A staged table has no metadata file yet: nothing immutable to key it by. On a hit,
    // response.tableMetadata() (which rebuilds the metadata) is not called at all.
    byte[] json =
        location == null
            ? serialize(response, mode)
            : metadataJson.get(new Key(location, mode), k -> serialize(response, mode));
    return withMetadata(response, json);
  }

  private static byte[] withMetadata(LoadTableResponse response, byte[] json) {
    ByteArrayOutputStream around = new ByteArrayOutputStream(1024);
    int at;
    try (JsonGenerator gen = JsonUtil.factory().createGenerator(around)) {
      gen.writeStartObject();
      if (response.metadataLocation() != null) {
        gen.writeStringField("metadata-location", response.metadataLocation());
      }
      gen.writeFieldName("metadata");
      gen.writeRawValue(PLACEHOLDER);
      gen.flush();
      at = around.size() - PLACEHOLDER.length();
      if (!response.config().isEmpty()) {
        JsonUtil.writeStringMap("config", response.config(), gen);
      }
      if (!response.credentials().isEmpty()) {
        gen.writeArrayFieldStart("storage-credentials");
        for (Credential credential : response.credentials()) {
          CredentialParser.toJson(credential, gen);
        }
        gen.writeEndArray();
      }
      gen.writeEndObject();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    byte[] parts = around.toByteArray();
    int after = at + PLACEHOLDER.length();
    byte[] out = new byte[parts.length - PLACEHOLDER.length() + json.length];
    System.arraycopy(parts, 0, out, 0, at);
    System.arraycopy(json, 0, out, at, json.length);
    System.arraycopy(parts, after, out, at + json.length, parts.length - after);
    return out;
  }

  /**
   * The metadata's JSON: a commit's answer takes what the commit wrote to the file (Iceberg's own
   * serialization of the same metadata), anything else is serialized here.
   */
  private byte[] serialize(LoadTableResponse response, SnapshotsMode mode) {
    String location = response.metadataLocation();
    byte[] file = mode == SnapshotsMode.ALL && location != null ? written.apply(location) : null;
    if (file != null) {
      return file;
    }
    ByteArrayOutputStream out = new ByteArrayOutputStream(8192);
    try (JsonGenerator gen = JsonUtil.factory().createGenerator(out)) {
      TableMetadataParser.toJson(mode.apply(response.tableMetadata()), gen);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    return out.toByteArray();
  }
}
