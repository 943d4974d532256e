package dev.sluice.testing.gcp;

import static dev.sluice.testing.gcp.StorageRoles.OBJECTS_CREATE;
import static dev.sluice.testing.gcp.StorageRoles.OBJECTS_DELETE;
import static java.util.Objects.requireNonNull;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.security.SecureRandom;
import java.util.Base64;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Supplier;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Resumable uploads as GCS documents them
 * (https://cloud.google.com/storage/docs/performing-resumable-uploads): a POST starts a session
 * (authorized then: storage.objects.create, plus storage.objects.delete when it would overwrite)
 * and answers its URI in {@code Location}; PUTs carry {@code Content-Range} chunks ({@code bytes
 * A-B/*}), the last one the total ({@code bytes A-B/N} or {@code bytes *}{@code /N}), and {@code
 * bytes *}{@code /*} asks how much is persisted. An unfinished chunk is answered {@code 308} with
 * {@code Range: bytes=0-P} where P+1, the persisted size, is a multiple of 256 KiB (GCS persists
 * whole 256 KiB blocks only). The session URI is the credential for the PUTs, as in GCS.
 */
final class GcsUploads {
  static final int BLOCK = 256 * 1024;
  private static final Pattern CONTENT_RANGE =
      Pattern.compile("bytes (?:(\\d+)-(\\d+)|\\*)/(\\d+|\\*)");
  private static final SecureRandom RANDOM = new SecureRandom();

  private static final class Session {
    final String bucket;
    final String name;
    final String contentType;
    final ObjectStore.Preconditions preconditions;
    final Http.Call start;
    final ByteArrayOutputStream data = new ByteArrayOutputStream();
    ObjectStore.StoredObject result;

    Session(
        String bucket,
        String name,
        String contentType,
        ObjectStore.Preconditions preconditions,
        Http.Call start) {
      this.bucket = bucket;
      this.name = name;
      this.contentType = contentType;
      this.preconditions = preconditions;
      this.start = start;
    }
  }

  private final ObjectStore store;
  private final GcsAuthorizer authorizer;
  private final Supplier<String> endpoint;
  private final Map<String, Session> sessions = new ConcurrentHashMap<>();

  GcsUploads(ObjectStore store, GcsAuthorizer authorizer, Supplier<String> endpoint) {
    this.store = requireNonNull(store, "store");
    this.authorizer = requireNonNull(authorizer, "authorizer");
    this.endpoint = requireNonNull(endpoint, "endpoint");
  }

  Http.Reply start(Http.Call call, String bucket) {
    Map<String, String> query = call.query();
    String name = query.get("name");
    String contentType = call.header("X-Upload-Content-Type");
    if (call.body().length > 0) {
      JsonNode metadata;
      try {
        metadata = Http.JSON.readTree(call.body());
      } catch (IOException e) {
        throw GcsError.badRequest("The resumable upload metadata is not JSON");
      }
      name = metadata.path("name").asText(name);
      contentType = metadata.path("contentType").asText(contentType);
    }
    if (name == null || name.isEmpty()) {
      throw GcsError.badRequest("Required: the object name");
    }
    authorizer.authorize(call, OBJECTS_CREATE, bucket, name, null);
    ObjectStore.StoredObject current = store.get(bucket, name).orElse(null);
    if (current != null) {
      authorizer.authorize(call, OBJECTS_DELETE, bucket, name, null);
    }
    // GCS checks generation preconditions when the session starts, and again when it completes.
    ObjectStore.Preconditions preconditions = ObjectStore.Preconditions.of(query);
    if (!preconditions.holdFor(current)) {
      throw GcsError.preconditionFailed();
    }
    byte[] id = new byte[24];
    RANDOM.nextBytes(id);
    String uploadId = Base64.getUrlEncoder().withoutPadding().encodeToString(id);
    sessions.put(uploadId, new Session(bucket, name, contentType, preconditions, call));
    String location =
        endpoint.get()
            + "/upload/storage/v1/b/"
            + Http.encodeSegment(bucket)
            + "/o?uploadType=resumable&name="
            + Http.encodeSegment(name)
            + "&upload_id="
            + uploadId;
    return Http.Reply.empty(200)
        .header("Location", location)
        .header("X-GUploader-UploadID", uploadId);
  }

  Http.Reply put(Http.Call call, String uploadId) {
    Session session = sessions.get(uploadId);
    if (session == null) {
      throw GcsError.notFound("No such upload session: " + uploadId);
    }
    String header = call.header("Content-Range");
    Matcher range = header == null ? null : CONTENT_RANGE.matcher(header.trim());
    if (range == null || !range.matches()) {
      throw GcsError.badRequest("Invalid Content-Range header: " + header);
    }
    synchronized (session) {
      if (session.result != null) {
        return Http.Reply.json(200, GcsJson.object(session.result, endpoint.get()));
      }
      byte[] body = call.body();
      Long total = range.group(3).equals("*") ? null : Long.parseLong(range.group(3));
      long persisted = session.data.size();
      if (range.group(1) == null) {
        if (body.length > 0) {
          throw GcsError.badRequest("Content-Range bytes */N carries no data");
        }
        if (total == null) {
          return incomplete(session);
        }
        return finish(session, total, call);
      }
      long first = Long.parseLong(range.group(1));
      long last = Long.parseLong(range.group(2));
      if (last < first || last - first + 1 != body.length) {
        throw GcsError.badRequest(
            "Content-Range " + header + " does not match the " + body.length + " bytes sent");
      }
      if (first > persisted) {
        throw GcsError.badRequest(
            "Invalid request. According to the Content-Range header, the upload offset is "
                + first
                + " byte(s), which exceeds already uploaded size of "
                + persisted
                + " byte(s).");
      }
      // Bytes already persisted (a retried chunk) are skipped, as GCS does.
      int skip = (int) (persisted - first);
      int length = body.length - Math.min(skip, body.length);
      if (total != null) {
        session.data.write(body, Math.min(skip, body.length), length);
        return finish(session, total, call);
      }
      long keep = ((persisted + length) / BLOCK) * BLOCK - persisted;
      if (keep > 0) {
        session.data.write(body, skip, (int) keep);
      }
      return incomplete(session);
    }
  }

  private static Http.Reply incomplete(Session session) {
    Http.Reply reply = Http.Reply.empty(308);
    if (session.data.size() > 0) {
      reply.header("Range", "bytes=0-" + (session.data.size() - 1));
    }
    return reply;
  }

  private Http.Reply finish(Session session, long total, Http.Call call) {
    byte[] data = session.data.toByteArray();
    if (data.length != total) {
      throw GcsError.badRequest(
          "The final Content-Range says " + total + " bytes; " + data.length + " were received");
    }
    Hashes.checkHeader(data, call.header("x-goog-hash"));
    // Authorized at the session's start; an object that appeared since needs delete too.
    if (store.get(session.bucket, session.name).isPresent()) {
      authorizer.authorize(session.start, OBJECTS_DELETE, session.bucket, session.name, null);
    }
    session.result =
        store.put(session.bucket, session.name, data, session.contentType, session.preconditions);
    session.data.reset();
    return Http.Reply.json(200, GcsJson.object(session.result, endpoint.get()));
  }
}
