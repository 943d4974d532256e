package dev.sluice.testing.gcp;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.google.auth.oauth2.AccessToken;
import com.google.auth.oauth2.CredentialAccessBoundary;
import com.google.auth.oauth2.GoogleCredentials;
import com.google.cloud.storage.Blob;
import com.google.cloud.storage.BlobId;
import com.google.cloud.storage.BlobInfo;
import com.google.cloud.storage.Storage;
import com.google.cloud.storage.StorageException;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import java.util.Set;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The fake's Cloud Storage JSON API through google-cloud-storage's Storage client and on the wire:
 * paging, names, preconditions, integrity checks, the resumable protocol, ranges, batches.
 */
class GcsJsonApiTest {
  private static final ObjectMapper JSON = new ObjectMapper();

  @TempDir Path dir;
  private GoogleCloudFake fake;
  private GoogleCredentials vendor;
  private AccessToken token;

  @BeforeEach
  void start() throws IOException {
    fake = GoogleCloudFake.start();
    fake.createBucket("lake");
    vendor =
        GcpFixtures.source(
            fake.addServiceAccount(
                "vendor@lakehouse.iam.gserviceaccount.com", "lakehouse", Set.of("lake")),
            dir);
    token = GcpFixtures.downscope(vendor, GcpFixtures.readWrite("lake", "wh/t/"));
  }

  @AfterEach
  void stop() {
    fake.close();
  }

  @Test
  void listsPageAndCollapseOnTheDelimiter() {
    Storage storage = GcpFixtures.storage(fake, token);
    for (String name : List.of("wh/t/a", "wh/t/b", "wh/t/c", "wh/t/d/1", "wh/t/d/2", "wh/t/e")) {
      fake.put("lake", name, new byte[] {1});
    }

    List<String> paged = new ArrayList<>();
    storage
        .list("lake", Storage.BlobListOption.prefix("wh/t/"), Storage.BlobListOption.pageSize(2))
        .iterateAll()
        .forEach(b -> paged.add(b.getName()));
    List<String> directory = new ArrayList<>();
    storage
        .list(
            "lake",
            Storage.BlobListOption.prefix("wh/t/"),
            Storage.BlobListOption.currentDirectory())
        .iterateAll()
        .forEach(b -> directory.add(b.getName() + (b.isDirectory() ? " (prefix)" : "")));

    List<String> pagedDirectory = new ArrayList<>();
    storage
        .list(
            "lake",
            Storage.BlobListOption.prefix("wh/t/"),
            Storage.BlobListOption.currentDirectory(),
            Storage.BlobListOption.pageSize(1))
        .iterateAll()
        .forEach(b -> pagedDirectory.add(b.getName()));

    assertThat(paged)
        .containsExactly("wh/t/a", "wh/t/b", "wh/t/c", "wh/t/d/1", "wh/t/d/2", "wh/t/e");
    // The client yields a page's objects, then its prefixes.
    assertThat(directory)
        .containsExactly("wh/t/a", "wh/t/b", "wh/t/c", "wh/t/e", "wh/t/d/ (prefix)");
    // One entry a page: a prefix page is followed by what comes after the prefix, once.
    assertThat(pagedDirectory).containsExactly("wh/t/a", "wh/t/b", "wh/t/c", "wh/t/d/", "wh/t/e");
    assertThat(fake.requests(GcsOperation.LIST)).isEqualTo(3 + 1 + 5);
  }

  @Test
  void objectNamesArePercentDecodedExactlyOnce() {
    Storage storage = GcpFixtures.storage(fake, token);
    List<String> names =
        List.of("wh/t/a b", "wh/t/a+b", "wh/t/100%", "wh/t/a%2Fb", "wh/t/été/ü", "wh/t/q?x=1#y");

    for (String name : names) {
      storage.create(BlobInfo.newBuilder("lake", name).build(), name.getBytes(UTF_8));
    }

    assertThat(fake.names("lake", "wh/t/")).containsExactlyInAnyOrderElementsOf(names);
    for (String name : names) {
      assertThat(storage.readAllBytes(BlobId.of("lake", name))).isEqualTo(name.getBytes(UTF_8));
      assertThat(storage.get(BlobId.of("lake", name)).getName()).isEqualTo(name);
    }
  }

  @Test
  void overwritingNeedsDeleteAsGcsDocuments() throws IOException {
    CredentialAccessBoundary creatorOnly =
        CredentialAccessBoundary.newBuilder()
            .addRule(
                GcpFixtures.rule(
                    "lake", GcpFixtures.tableCondition("lake", "wh/t/"), "objectCreator"))
            .build();
    Storage storage = GcpFixtures.storage(fake, GcpFixtures.downscope(vendor, creatorOnly));
    fake.put("lake", "wh/t/existing", new byte[] {1});

    storage.create(BlobInfo.newBuilder("lake", "wh/t/new").build(), new byte[] {2});
    assertThatThrownBy(
            () ->
                storage.create(
                    BlobInfo.newBuilder("lake", "wh/t/existing").build(), new byte[] {3}))
        .isInstanceOf(StorageException.class)
        .hasMessageContaining("storage.objects.delete");

    assertThat(fake.bytes("lake", "wh/t/new"))
        .hasValueSatisfying(b -> assertThat(b).containsExactly(2));
    assertThat(fake.bytes("lake", "wh/t/existing"))
        .hasValueSatisfying(b -> assertThat(b).containsExactly(1));
    assertThat(fake.refusals())
        .singleElement()
        .satisfies(
            r -> {
              assertThat(r.permission()).isEqualTo("storage.objects.delete");
              assertThat(r.object()).isEqualTo("wh/t/existing");
            });
  }

  @Test
  void aGenerationPreconditionThatFailsIs412AndChangesNothing() {
    Storage storage = GcpFixtures.storage(fake, token);
    fake.put("lake", "wh/t/x", new byte[] {1});
    long generation = storage.get(BlobId.of("lake", "wh/t/x")).getGeneration();

    assertThatThrownBy(
            () ->
                storage.create(
                    BlobInfo.newBuilder("lake", "wh/t/x").build(),
                    new byte[] {2},
                    Storage.BlobTargetOption.doesNotExist()))
        .isInstanceOf(StorageException.class)
        .satisfies(e -> assertThat(((StorageException) e).getCode()).isEqualTo(412));
    Blob replaced =
        storage.create(
            BlobInfo.newBuilder(BlobId.of("lake", "wh/t/x", generation)).build(),
            new byte[] {3},
            Storage.BlobTargetOption.generationMatch());

    assertThat(replaced.getGeneration()).isGreaterThan(generation);
    assertThat(fake.bytes("lake", "wh/t/x"))
        .hasValueSatisfying(b -> assertThat(b).containsExactly(3));
  }

  @Test
  void aWrongCrc32cIsRefusedAndStoresNothing() throws Exception {
    String boundary = "b0undary";
    String body =
        "--"
            + boundary
            + "\r\nContent-Type: application/json; charset=UTF-8\r\n\r\n"
            + "{\"name\":\"wh/t/x\",\"crc32c\":\"AAAAAA==\"}\r\n--"
            + boundary
            + "\r\nContent-Type: application/octet-stream\r\n\r\nhello\r\n--"
            + boundary
            + "--\r\n";
    HttpResponse<String> response =
        send(
            "POST",
            "/upload/storage/v1/b/lake/o?uploadType=multipart",
            "multipart/related; boundary=" + boundary,
            body.getBytes(UTF_8),
            null);

    assertThat(response.statusCode()).isEqualTo(400);
    assertThat(JSON.readTree(response.body()).at("/error/message").asText())
        .contains("doesn't match calculated CRC32C");
    assertThat(fake.exists("lake", "wh/t/x")).isFalse();
  }

  @Test
  void resumableUploadsPersistWhole256KiBBlocksAndResume() throws Exception {
    byte[] data = new byte[300 * 1024 + 7];
    new Random(7).nextBytes(data);
    HttpResponse<String> started =
        send(
            "POST",
            "/upload/storage/v1/b/lake/o?uploadType=resumable&name=wh/t/r",
            "application/json",
            "{}".getBytes(UTF_8),
            null);
    assertThat(started.statusCode()).isEqualTo(200);
    URI session = URI.create(started.headers().firstValue("Location").orElseThrow());

    HttpResponse<String> first =
        put(session, Arrays.copyOfRange(data, 0, 300 * 1024), "bytes 0-307199/*");
    HttpResponse<String> status = put(session, new byte[0], "bytes */*");
    HttpResponse<String> last =
        put(
            session,
            Arrays.copyOfRange(data, 262144, data.length),
            "bytes 262144-" + (data.length - 1) + "/" + data.length);

    assertThat(first.statusCode()).isEqualTo(308);
    assertThat(first.headers().firstValue("Range")).contains("bytes=0-262143");
    assertThat(status.statusCode()).isEqualTo(308);
    assertThat(status.headers().firstValue("Range")).contains("bytes=0-262143");
    assertThat(last.statusCode()).isEqualTo(200);
    assertThat(JSON.readTree(last.body()).path("size").asText())
        .isEqualTo(Integer.toString(data.length));
    assertThat(fake.bytes("lake", "wh/t/r")).hasValueSatisfying(b -> assertThat(b).isEqualTo(data));
  }

  @Test
  void aResumableUploadWithAWrongFinalHashIsRefused() throws Exception {
    HttpResponse<String> started =
        send(
            "POST",
            "/upload/storage/v1/b/lake/o?uploadType=resumable&name=wh/t/h",
            "application/json",
            new byte[0],
            null);
    URI session = URI.create(started.headers().firstValue("Location").orElseThrow());

    HttpResponse<String> last =
        GcpFixtures.HTTP.send(
            HttpRequest.newBuilder(session)
                .header("Content-Range", "bytes 0-4/5")
                .header("x-goog-hash", "crc32c=AAAAAA==")
                .PUT(HttpRequest.BodyPublishers.ofByteArray("hello".getBytes(UTF_8)))
                .build(),
            HttpResponse.BodyHandlers.ofString());

    assertThat(last.statusCode()).isEqualTo(400);
    assertThat(fake.exists("lake", "wh/t/h")).isFalse();
  }

  @Test
  void rangesAreServedAsGcsServesThem() throws Exception {
    fake.put("lake", "wh/t/x", "0123456789".getBytes(UTF_8));
    String path = "/download/storage/v1/b/lake/o/wh%2Ft%2Fx?alt=media";

    HttpResponse<String> middle = send("GET", path, null, null, "bytes=2-4");
    HttpResponse<String> open = send("GET", path, null, null, "bytes=7-");
    HttpResponse<String> suffix = send("GET", path, null, null, "bytes=-3");
    HttpResponse<String> beyond = send("GET", path, null, null, "bytes=10-");
    HttpResponse<String> whole =
        send("GET", "/storage/v1/b/lake/o/wh%2Ft%2Fx?alt=media", null, null, null);

    assertThat(middle.statusCode()).isEqualTo(206);
    assertThat(middle.body()).isEqualTo("234");
    assertThat(middle.headers().firstValue("Content-Range")).contains("bytes 2-4/10");
    assertThat(open.body()).isEqualTo("789");
    assertThat(suffix.body()).isEqualTo("789");
    assertThat(beyond.statusCode()).isEqualTo(416);
    assertThat(whole.statusCode()).isEqualTo(200);
    assertThat(whole.body()).isEqualTo("0123456789");
    assertThat(whole.headers().firstValue("x-goog-generation")).isPresent();
    assertThat(whole.headers().firstValue("x-goog-hash"))
        .hasValueSatisfying(h -> assertThat(h).startsWith("crc32c="));
  }

  @Test
  void missingAndUnknownTokensAre401InGcsErrorShape() throws Exception {
    fake.put("lake", "wh/t/x", new byte[] {1});

    HttpResponse<String> none =
        send("GET", "/storage/v1/b/lake/o/wh%2Ft%2Fx", null, null, null, null);
    HttpResponse<String> unknown =
        send("GET", "/storage/v1/b/lake/o/wh%2Ft%2Fx", null, null, null, "ya29.made-up");

    for (HttpResponse<String> response : List.of(none, unknown)) {
      assertThat(response.statusCode()).isEqualTo(401);
      JsonNode error = JSON.readTree(response.body()).path("error");
      assertThat(error.path("code").asInt()).isEqualTo(401);
      assertThat(error.at("/errors/0/reason").asText()).isEqualTo("authError");
    }
    assertThat(fake.refusals())
        .extracting(Refusal::reason)
        .containsExactly("no bearer token", "a token the fake never issued");
  }

  @Test
  void aBatchAnswersEachDeleteOnItsOwnAndTheClientHidesRefusals() {
    Storage storage = GcpFixtures.storage(fake, token);
    fake.put("lake", "wh/t/a", new byte[] {1});
    fake.put("lake", "wh/t2/b", new byte[] {2});

    List<Boolean> deleted =
        storage.delete(
            BlobId.of("lake", "wh/t/a"),
            BlobId.of("lake", "wh/t/missing"),
            BlobId.of("lake", "wh/t2/b"));

    // Storage.delete(BlobId...) reports any failed sub-request as false, a 403 as a 404: only the
    // fake's records tell a refusal from a missing object.
    assertThat(deleted).containsExactly(true, false, false);
    assertThat(fake.names("lake", "")).containsExactly("wh/t2/b");
    assertThat(fake.requests(GcsOperation.BATCH)).isEqualTo(1);
    assertThat(fake.requests(GcsOperation.DELETE)).isEqualTo(3);
    assertThat(fake.refusals())
        .singleElement()
        .satisfies(r -> assertThat(r.object()).isEqualTo("wh/t2/b"));
  }

  @Test
  void whatTheFakeDoesNotImplementIs501NotASilentSuccess() throws Exception {
    fake.put("lake", "wh/t/x", new byte[] {1});

    HttpResponse<String> patch =
        send(
            "PATCH",
            "/storage/v1/b/lake/o/wh%2Ft%2Fx",
            "application/json",
            "{}".getBytes(UTF_8),
            null);

    assertThat(patch.statusCode()).isEqualTo(501);
    assertThat(fake.requests(GcsOperation.UNSUPPORTED)).isEqualTo(1);
  }

  private HttpResponse<String> put(URI session, byte[] body, String contentRange) throws Exception {
    return GcpFixtures.HTTP.send(
        HttpRequest.newBuilder(session)
            .header("Content-Range", contentRange)
            .PUT(HttpRequest.BodyPublishers.ofByteArray(body))
            .build(),
        HttpResponse.BodyHandlers.ofString());
  }

  private HttpResponse<String> send(
      String method, String path, String contentType, byte[] body, String range) throws Exception {
    return send(method, path, contentType, body, range, token.getTokenValue());
  }

  private HttpResponse<String> send(
      String method, String path, String contentType, byte[] body, String range, String bearer)
      throws Exception {
    HttpRequest.Builder request =
        HttpRequest.newBuilder(URI.create(fake.endpoint() + path))
            .method(
                method,
                body == null
                    ? HttpRequest.BodyPublishers.noBody()
                    : HttpRequest.BodyPublishers.ofByteArray(body));
    if (contentType != null) {
      request.header("Content-Type", contentType);
    }
    if (range != null) {
      request.header("Range", range);
    }
    if (bearer != null) {
      request.header("Authorization", "Bearer " + bearer);
    }
    return GcpFixtures.HTTP.send(request.build(), HttpResponse.BodyHandlers.ofString());
  }
}
