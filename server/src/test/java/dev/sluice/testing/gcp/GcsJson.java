package dev.sluice.testing.gcp;

import com.fasterxml.jackson.databind.node.ObjectNode;
import java.nio.ByteBuffer;
import java.time.format.DateTimeFormatter;
import java.util.Base64;

/** The JSON API's object resource ({@code storage#object}) for a stored object. */
final class GcsJson {
  private GcsJson() {}

  static ObjectNode object(ObjectStore.StoredObject object, String endpoint) {
    String path =
        "b/" + Http.encodeSegment(object.bucket()) + "/o/" + Http.encodeSegment(object.name());
    String created = DateTimeFormatter.ISO_INSTANT.format(object.created());
    ObjectNode json = Http.JSON.createObjectNode();
    json.put("kind", "storage#object");
    json.put("id", object.bucket() + "/" + object.name() + "/" + object.generation());
    json.put("selfLink", endpoint + "/storage/v1/" + path);
    json.put(
        "mediaLink",
        endpoint
            + "/download/storage/v1/"
            + path
            + "?generation="
            + object.generation()
            + "&alt=media");
    json.put("name", object.name());
    json.put("bucket", object.bucket());
    // GCS sends 64-bit integers as JSON strings.
    json.put("generation", Long.toString(object.generation()));
    json.put("metageneration", Long.toString(object.metageneration()));
    json.put("contentType", object.contentType());
    json.put("storageClass", "STANDARD");
    json.put("size", Integer.toString(object.data().length));
    json.put("md5Hash", object.md5());
    json.put("crc32c", object.crc32c());
    json.put("etag", etag(object));
    json.put("timeCreated", created);
    json.put("updated", created);
    json.put("timeStorageClassUpdated", created);
    return json;
  }

  /** GCS's object etag: base64 of the generation and metageneration. */
  static String etag(ObjectStore.StoredObject object) {
    return Base64.getEncoder()
        .encodeToString(
            ByteBuffer.allocate(16)
                .putLong(object.generation())
                .putLong(object.metageneration())
                .array());
  }
}
