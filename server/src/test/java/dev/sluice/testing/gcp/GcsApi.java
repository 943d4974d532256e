package dev.sluice.testing.gcp;

import static dev.sluice.testing.gcp.StorageRoles.OBJECTS_CREATE;
import static dev.sluice.testing.gcp.StorageRoles.OBJECTS_DELETE;
import static dev.sluice.testing.gcp.StorageRoles.OBJECTS_GET;
import static dev.sluice.testing.gcp.StorageRoles.OBJECTS_LIST;
import static java.nio.charset.StandardCharsets.UTF_8;
import static java.util.Objects.requireNonNull;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;
import java.util.Arrays;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;
import java.util.function.Consumer;
import java.util.function.Supplier;

/**
 * The Cloud Storage JSON API subset google-cloud-storage's HTTP transport uses: object metadata,
 * media download (with Range), list (prefix, delimiter, paging), delete, media and multipart
 * uploads; resumable uploads are {@link GcsUploads}, batches {@link GcsBatch}. Each request is
 * authorized by {@link GcsAuthorizer} before it touches the store.
 */
final class GcsApi {
  private static final int MAX_LIST_RESULTS = 1000;

  private final ObjectStore store;
  private final GcsAuthorizer authorizer;
  private final Supplier<String> endpoint;
  private final Consumer<GcsOperation> counter;
  private final GcsUploads uploads;
  private final GcsBatch batch;

  GcsApi(
      ObjectStore store,
      GcsAuthorizer authorizer,
      Supplier<String> endpoint,
      Consumer<GcsOperation> counter) {
    this.store = requireNonNull(store, "store");
    this.authorizer = requireNonNull(authorizer, "authorizer");
    this.endpoint = requireNonNull(endpoint, "endpoint");
    this.counter = requireNonNull(counter, "counter");
    this.uploads = new GcsUploads(store, authorizer, endpoint);
    this.batch = new GcsBatch(this::serveOne);
  }

  /** Serves one request on the wire (a batch envelope included). */
  Http.Reply serve(Http.Call call) {
    if (call.rawPath().equals("/batch/storage/v1")) {
      counter.accept(GcsOperation.BATCH);
      try {
        return batch.serve(call);
      } catch (GcsError e) {
        return e.reply();
      }
    }
    return serveOne(call);
  }

  /** Serves one request that is not a batch (also each sub-request of a batch). */
  Http.Reply serveOne(Http.Call call) {
    try {
      return route(call);
    } catch (GcsError e) {
      return e.reply();
    }
  }

  private Http.Reply route(Http.Call call) {
    String path = call.rawPath();
    Map<String, String> query = call.query();
    if (path.startsWith("/upload/storage/v1/b/")) {
      ObjectPath target = ObjectPath.parse(path.substring("/upload/storage/v1/b/".length()));
      if (target.object != null) {
        throw unsupported(call);
      }
      String uploadType = query.getOrDefault("uploadType", "");
      if (call.method().equals("PUT") && query.containsKey("upload_id")) {
        counter.accept(GcsOperation.RESUMABLE_PUT);
        return uploads.put(call, query.get("upload_id"));
      }
      if (call.method().equals("POST") && uploadType.equals("resumable")) {
        counter.accept(GcsOperation.RESUMABLE_START);
        return uploads.start(call, target.bucket);
      }
      if (call.method().equals("POST") && uploadType.equals("multipart")) {
        counter.accept(GcsOperation.MULTIPART_UPLOAD);
        return multipartUpload(call, target.bucket);
      }
      if (call.method().equals("POST") && uploadType.equals("media")) {
        counter.accept(GcsOperation.MEDIA_UPLOAD);
        return insert(
            call, target.bucket, query.get("name"), call.body(), call.header("Content-Type"), null);
      }
      throw unsupported(call);
    }
    boolean download = path.startsWith("/download/storage/v1/b/");
    if (!download && !path.startsWith("/storage/v1/b/")) {
      throw unsupported(call);
    }
    ObjectPath target =
        ObjectPath.parse(
            path.substring((download ? "/download" : "").length() + "/storage/v1/b/".length()));
    if (target.object == null && target.list && call.method().equals("GET") && !download) {
      counter.accept(GcsOperation.LIST);
      return list(call, target.bucket, query);
    }
    if (target.object == null) {
      throw unsupported(call);
    }
    if (call.method().equals("GET") && (download || "media".equals(query.get("alt")))) {
      counter.accept(GcsOperation.DOWNLOAD);
      return download(call, target.bucket, target.object, query);
    }
    if (call.method().equals("GET") && !download) {
      counter.accept(GcsOperation.GET_METADATA);
      authorizer.authorize(call, OBJECTS_GET, target.bucket, target.object, null);
      ObjectStore.StoredObject object = lookup(target.bucket, target.object, query);
      return Http.Reply.json(200, GcsJson.object(object, endpoint.get()));
    }
    if (call.method().equals("DELETE") && !download) {
      counter.accept(GcsOperation.DELETE);
      authorizer.authorize(call, OBJECTS_DELETE, target.bucket, target.object, null);
      Long generation = query.containsKey("generation") ? number(query, "generation") : null;
      if (!store.delete(
          target.bucket, target.object, generation, ObjectStore.Preconditions.of(query))) {
        throw noSuchObject(target.bucket, target.object);
      }
      return Http.Reply.empty(204);
    }
    throw unsupported(call);
  }

  private Http.Reply download(
      Http.Call call, String bucket, String name, Map<String, String> query) {
    authorizer.authorize(call, OBJECTS_GET, bucket, name, null);
    ObjectStore.StoredObject object = lookup(bucket, name, query);
    byte[] data = object.data();
    String range = call.header("Range");
    Http.Reply reply;
    if (range == null || data.length == 0) {
      reply = new Http.Reply(200, data);
    } else {
      long[] span = ByteRange.parse(range, data.length);
      if (span == null) {
        GcsError error =
            new GcsError(
                416, "requestedRangeNotSatisfiable", "The requested range cannot be satisfied.");
        error.headers.put("Content-Range", "bytes */" + data.length);
        throw error;
      }
      reply = new Http.Reply(206, Arrays.copyOfRange(data, (int) span[0], (int) span[1] + 1));
      reply.header("Content-Range", "bytes " + span[0] + "-" + span[1] + "/" + data.length);
    }
    return reply
        .header("Content-Type", object.contentType())
        .header("ETag", GcsJson.etag(object))
        .header("x-goog-generation", Long.toString(object.generation()))
        .header("x-goog-metageneration", Long.toString(object.metageneration()))
        .header("x-goog-stored-content-length", Integer.toString(data.length))
        .header("x-goog-stored-content-encoding", "identity")
        .header("x-goog-storage-class", "STANDARD")
        .header("x-goog-hash", "crc32c=" + object.crc32c() + ",md5=" + object.md5());
  }

  private Http.Reply list(Http.Call call, String bucket, Map<String, String> query) {
    String prefix = query.getOrDefault("prefix", "");
    authorizer.authorize(call, OBJECTS_LIST, bucket, null, prefix);
    String delimiter = query.get("delimiter");
    int maxResults = MAX_LIST_RESULTS;
    if (query.containsKey("maxResults")) {
      maxResults = (int) Math.min(MAX_LIST_RESULTS, Math.max(1, number(query, "maxResults")));
    }
    String startAfter = null;
    if (query.containsKey("pageToken")) {
      try {
        startAfter = new String(Base64.getUrlDecoder().decode(query.get("pageToken")), UTF_8);
      } catch (IllegalArgumentException e) {
        throw GcsError.badRequest("Invalid pageToken");
      }
    }
    ObjectNode page = Http.JSON.createObjectNode();
    page.put("kind", "storage#objects");
    ArrayNode items = Http.JSON.createArrayNode();
    TreeSet<String> prefixes = new TreeSet<>();
    String last = null;
    boolean more = false;
    for (ObjectStore.StoredObject object : store.list(bucket, prefix, startAfter)) {
      String rest = object.name().substring(prefix.length());
      int cut = delimiter == null || delimiter.isEmpty() ? -1 : rest.indexOf(delimiter);
      String collapsed = cut < 0 ? null : prefix + rest.substring(0, cut + delimiter.length());
      if (collapsed != null && collapsed.equals(startAfter)) {
        continue; // the previous page ended on this prefix
      }
      boolean newEntry = collapsed == null || !prefixes.contains(collapsed);
      if (newEntry && items.size() + prefixes.size() >= maxResults) {
        more = true;
        break;
      }
      if (collapsed != null) {
        prefixes.add(collapsed);
        last = collapsed;
      } else {
        items.add(GcsJson.object(object, endpoint.get()));
        last = object.name();
      }
    }
    if (more && last != null) {
      page.put("nextPageToken", Base64.getUrlEncoder().encodeToString(last.getBytes(UTF_8)));
    }
    if (!prefixes.isEmpty()) {
      ArrayNode names = page.putArray("prefixes");
      prefixes.forEach(names::add);
    }
    if (!items.isEmpty()) {
      page.set("items", items);
    }
    return Http.Reply.json(200, page);
  }

  private Http.Reply multipartUpload(Http.Call call, String bucket) {
    List<Multipart.Part> parts =
        Multipart.parse(call.body(), Multipart.boundary(call.header("Content-Type")));
    if (parts.size() != 2) {
      throw GcsError.badRequest("A multipart upload has exactly 2 parts, not " + parts.size());
    }
    JsonNode metadata;
    try {
      metadata = Http.JSON.readTree(parts.get(0).body());
    } catch (IOException e) {
      throw GcsError.badRequest("The metadata part is not JSON");
    }
    String name = metadata.path("name").asText(call.query().get("name"));
    String contentType =
        metadata.path("contentType").asText(parts.get(1).headers().get("Content-Type"));
    return insert(call, bucket, name, parts.get(1).body(), contentType, metadata);
  }

  /** A single-request upload (media or multipart): authorize, check hashes, store. */
  private Http.Reply insert(
      Http.Call call,
      String bucket,
      String name,
      byte[] data,
      String contentType,
      JsonNode metadata) {
    if (name == null || name.isEmpty()) {
      throw GcsError.badRequest("Required: the object name");
    }
    authorizer.authorize(call, OBJECTS_CREATE, bucket, name, null);
    if (store.get(bucket, name).isPresent()) {
      authorizer.authorize(call, OBJECTS_DELETE, bucket, name, null);
    }
    if (metadata != null) {
      Hashes.check(
          data, metadata.path("crc32c").asText(null), metadata.path("md5Hash").asText(null));
    }
    Hashes.checkHeader(data, call.header("x-goog-hash"));
    ObjectStore.StoredObject stored =
        store.put(bucket, name, data, contentType, ObjectStore.Preconditions.of(call.query()));
    return Http.Reply.json(200, GcsJson.object(stored, endpoint.get()));
  }

  private ObjectStore.StoredObject lookup(String bucket, String name, Map<String, String> query) {
    ObjectStore.StoredObject object =
        store.get(bucket, name).orElseThrow(() -> noSuchObject(bucket, name));
    if (query.containsKey("generation") && number(query, "generation") != object.generation()) {
      throw noSuchObject(bucket, name);
    }
    if (!ObjectStore.Preconditions.of(query).holdFor(object)) {
      throw GcsError.preconditionFailed();
    }
    return object;
  }

  static GcsError noSuchObject(String bucket, String name) {
    return GcsError.notFound("No such object: " + bucket + "/" + name);
  }

  private static long number(Map<String, String> query, String name) {
    try {
      return Long.parseLong(query.get(name));
    } catch (NumberFormatException e) {
      throw GcsError.badRequest("Invalid argument " + name + "=" + query.get(name));
    }
  }

  private GcsError unsupported(Http.Call call) {
    counter.accept(GcsOperation.UNSUPPORTED);
    return GcsError.unsupported(call.method() + " " + call.rawPath());
  }

  /** {@code BUCKET/o} (a list) or {@code BUCKET/o/OBJECT}, each decoded exactly once. */
  private record ObjectPath(String bucket, boolean list, String object) {
    static ObjectPath parse(String rest) {
      int slash = rest.indexOf('/');
      if (slash <= 0) {
        return new ObjectPath(Http.percentDecode(rest), false, null);
      }
      String bucket = Http.percentDecode(rest.substring(0, slash));
      String after = rest.substring(slash);
      if (after.equals("/o") || after.equals("/o/")) {
        return new ObjectPath(bucket, true, null);
      }
      if (after.startsWith("/o/")) {
        return new ObjectPath(bucket, false, Http.percentDecode(after.substring(3)));
      }
      return new ObjectPath(bucket, false, null);
    }
  }
}
