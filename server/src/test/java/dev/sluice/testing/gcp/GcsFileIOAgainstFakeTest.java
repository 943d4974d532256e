package dev.sluice.testing.gcp;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.google.auth.oauth2.AccessToken;
import com.google.auth.oauth2.GoogleCredentials;
import com.google.cloud.storage.StorageException;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import org.apache.iceberg.gcp.gcs.GCSFileIO;
import org.apache.iceberg.io.FileInfo;
import org.apache.iceberg.io.IOUtil;
import org.apache.iceberg.io.RangeReadable;
import org.apache.iceberg.io.SeekableInputStream;
import org.assertj.core.api.ThrowableAssert.ThrowingCallable;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Iceberg 1.10's GCSFileIO (google-cloud-storage 2.63.0, HTTP/JSON) with downscoped tokens from the
 * fake STS: everything inside the table's boundary works, everything outside is refused by the fake
 * and leaves the store as it was.
 */
class GcsFileIOAgainstFakeTest {
  private static final String VENDOR = "vendor@lakehouse.iam.gserviceaccount.com";
  private static final String TABLE = "gs://lake/wh/t/";

  @TempDir Path dir;
  private GoogleCloudFake fake;
  private GoogleCredentials vendor;

  @BeforeEach
  void start() throws IOException {
    fake = GoogleCloudFake.start();
    fake.createBucket("lake");
    fake.createBucket("other");
    vendor =
        GcpFixtures.source(
            fake.addServiceAccount(VENDOR, "lakehouse", Set.of("lake", "other")), dir);
  }

  @AfterEach
  void stop() {
    fake.close();
  }

  @Test
  void writesReadsListsAndDeletesInsideTheBoundary() throws IOException {
    byte[] data = random(20 * 1024 * 1024 + 123);
    try (GCSFileIO io = readWrite(Map.of())) {
      write(io, TABLE + "data/big.parquet", data);

      assertThat(fake.bytes("lake", "wh/t/data/big.parquet"))
          .hasValueSatisfying(b -> assertThat(b).isEqualTo(data));
      // 16 MiB default chunk: a full chunk, then the rest with the total.
      assertThat(fake.requests(GcsOperation.RESUMABLE_START)).isEqualTo(1);
      assertThat(fake.requests(GcsOperation.RESUMABLE_PUT)).isEqualTo(2);

      try (SeekableInputStream in = io.newInputFile(TABLE + "data/big.parquet").newStream()) {
        in.seek(17_000_000);
        byte[] chunk = new byte[4096];
        IOUtil.readFully(in, chunk, 0, chunk.length);
        assertThat(chunk).isEqualTo(Arrays.copyOfRange(data, 17_000_000, 17_004_096));
        byte[] range = new byte[100];
        ((RangeReadable) in).readFully(5_000, range, 0, 100);
        assertThat(range).isEqualTo(Arrays.copyOfRange(data, 5_000, 5_100));
        byte[] tail = new byte[8];
        assertThat(((RangeReadable) in).readTail(tail, 0, 8)).isEqualTo(8);
        assertThat(tail).isEqualTo(Arrays.copyOfRange(data, data.length - 8, data.length));
      }
      assertThat(io.newInputFile(TABLE + "data/big.parquet").getLength()).isEqualTo(data.length);

      write(io, TABLE + "metadata/a.json", new byte[] {1});
      write(io, TABLE + "metadata/b.json", new byte[] {2, 3});
      write(io, TABLE + "metadata/empty.json", new byte[0]);
      assertThat(io.listPrefix(TABLE))
          .extracting(FileInfo::location, FileInfo::size)
          .containsExactly(
              org.assertj.core.groups.Tuple.tuple(TABLE + "data/big.parquet", (long) data.length),
              org.assertj.core.groups.Tuple.tuple(TABLE + "metadata/a.json", 1L),
              org.assertj.core.groups.Tuple.tuple(TABLE + "metadata/b.json", 2L),
              org.assertj.core.groups.Tuple.tuple(TABLE + "metadata/empty.json", 0L));

      io.deleteFile(TABLE + "data/big.parquet");
      io.deleteFiles(
          List.of(
              TABLE + "metadata/a.json", TABLE + "metadata/b.json", TABLE + "metadata/empty.json"));
    }
    assertThat(fake.names("lake", "")).isEmpty();
    assertThat(fake.requests(GcsOperation.BATCH)).isEqualTo(1);
    assertThat(fake.requests(GcsOperation.DELETE)).isEqualTo(4);
    assertThat(fake.refusals()).isEmpty();
  }

  @Test
  void aSmallChunkSizeMakesSeveralResumablePuts() throws IOException {
    byte[] data = random(4 * 256 * 1024 + 5);
    try (GCSFileIO io = readWrite(Map.of("gcs.channel.write.chunk-size-bytes", "262144"))) {
      write(io, TABLE + "data/chunked.parquet", data);
    }

    assertThat(fake.bytes("lake", "wh/t/data/chunked.parquet"))
        .hasValueSatisfying(b -> assertThat(b).isEqualTo(data));
    assertThat(fake.requests(GcsOperation.RESUMABLE_PUT)).isEqualTo(5);
  }

  @Test
  void aWriteWithAReadOnlyBoundaryIsRefusedAndCreatesNothing() throws IOException {
    fake.put("lake", "wh/t/metadata/v1.json", new byte[] {7});
    try (GCSFileIO io = readOnly()) {
      assertRefused(() -> write(io, TABLE + "data/new.parquet", new byte[] {1, 2}), 403);
      assertRefused(
          () -> {
            try (OutputStream out =
                io.newOutputFile(TABLE + "metadata/v1.json").createOrOverwrite()) {
              out.write(new byte[] {8});
            }
          },
          403);
    }

    assertThat(fake.exists("lake", "wh/t/data/new.parquet")).isFalse();
    assertThat(fake.bytes("lake", "wh/t/metadata/v1.json"))
        .hasValueSatisfying(b -> assertThat(b).containsExactly(7));
    assertThat(fake.refusals())
        .extracting(
            Refusal::status,
            Refusal::method,
            Refusal::object,
            Refusal::permission,
            Refusal::account)
        .containsExactly(
            org.assertj.core.groups.Tuple.tuple(
                403, "POST", "wh/t/data/new.parquet", "storage.objects.create", VENDOR),
            org.assertj.core.groups.Tuple.tuple(
                403, "POST", "wh/t/metadata/v1.json", "storage.objects.create", VENDOR));
    assertThat(fake.refusals())
        .allSatisfy(r -> assertThat(r.reason()).startsWith("outside the access boundary"));
  }

  @Test
  void aDeleteWithAReadOnlyBoundaryIsRefusedAndDeletesNothing() throws IOException {
    fake.put("lake", "wh/t/data/f1.parquet", new byte[] {1});
    fake.put("lake", "wh/t/data/f2.parquet", new byte[] {2});
    try (GCSFileIO io = readOnly()) {
      assertRefused(() -> io.deleteFile(TABLE + "data/f1.parquet"), 403);
      // GCSFileIO.deleteFiles ignores the batch's per-object results; the fake still refuses.
      io.deleteFiles(List.of(TABLE + "data/f2.parquet"));
    }

    assertThat(fake.names("lake", "wh/t/"))
        .containsExactly("wh/t/data/f1.parquet", "wh/t/data/f2.parquet");
    assertThat(fake.refusals())
        .extracting(Refusal::method, Refusal::object, Refusal::permission)
        .containsExactly(
            org.assertj.core.groups.Tuple.tuple(
                "DELETE", "wh/t/data/f1.parquet", "storage.objects.delete"),
            org.assertj.core.groups.Tuple.tuple(
                "DELETE", "wh/t/data/f2.parquet", "storage.objects.delete"));
  }

  @Test
  void readsOfASiblingPrefixAndOfAnotherBucketAreRefused() throws IOException {
    fake.put("lake", "wh/t2/x", new byte[] {1});
    fake.put("other", "wh/t/x", new byte[] {2});
    try (GCSFileIO io = readWrite(Map.of())) {
      assertRefused(() -> readFirstByte(io, "gs://lake/wh/t2/x"), 403);
      assertRefused(() -> readFirstByte(io, "gs://other/wh/t/x"), 403);
      assertRefused(() -> io.newInputFile("gs://lake/wh/t2/x").getLength(), 403);
    }

    assertThat(fake.refusals())
        .extracting(Refusal::bucket, Refusal::object, Refusal::permission)
        .containsExactly(
            org.assertj.core.groups.Tuple.tuple("lake", "wh/t2/x", "storage.objects.get"),
            org.assertj.core.groups.Tuple.tuple("other", "wh/t/x", "storage.objects.get"),
            org.assertj.core.groups.Tuple.tuple("lake", "wh/t2/x", "storage.objects.get"));
    assertThat(fake.refusals())
        .allSatisfy(r -> assertThat(r.reason()).startsWith("outside the access boundary"));
  }

  @Test
  void aListWiderThanTheBoundaryIsRefused() throws IOException {
    fake.put("lake", "wh/t/x", new byte[] {1});
    fake.put("lake", "wh/t2/y", new byte[] {2});
    try (GCSFileIO io = readWrite(Map.of())) {
      assertThat(io.listPrefix(TABLE)).extracting(FileInfo::location).containsExactly(TABLE + "x");
      assertRefused(() -> io.listPrefix("gs://lake/wh/").iterator().hasNext(), 403);
      assertRefused(() -> io.listPrefix("gs://lake/").iterator().hasNext(), 403);
    }

    assertThat(fake.refusals())
        .extracting(Refusal::method, Refusal::object, Refusal::permission)
        .containsOnly(org.assertj.core.groups.Tuple.tuple("GET", null, "storage.objects.list"));
    assertThat(fake.refusals())
        .extracting(Refusal::reason)
        .containsExactly(
            "outside the access boundary: no rule grants storage.objects.list on"
                + " projects/_/buckets/lake with objectListPrefix 'wh/'",
            "outside the access boundary: no rule grants storage.objects.list on"
                + " projects/_/buckets/lake with objectListPrefix ''");
  }

  @Test
  void anExpiredTokenIsA401AtTheClient() throws IOException {
    fake.put("lake", "wh/t/x", new byte[] {1});
    AccessToken token = GcpFixtures.downscope(vendor, GcpFixtures.readOnly("lake", "wh/t/"));
    try (GCSFileIO io = GcpFixtures.fileIO(fake, token, Map.of())) {
      assertThat(io.newInputFile(TABLE + "x").getLength()).isEqualTo(1);
      fake.expireNow(token.getTokenValue());

      assertRefused(() -> readFirstByte(io, TABLE + "x"), 401);
    }
    assertThat(fake.refusals())
        .singleElement()
        .satisfies(
            r -> {
              assertThat(r.status()).isEqualTo(401);
              assertThat(r.reason()).isEqualTo("expired token");
            });
  }

  @Test
  void anAccountWithoutIamOnTheBucketIsRefusedEvenIfTheBoundaryNamesIt() throws IOException {
    fake.put("lake", "wh/t/x", new byte[] {1});
    ServiceAccount outsider =
        fake.addServiceAccount(
            "outsider@lakehouse.iam.gserviceaccount.com", "lakehouse", Set.of("other"));
    AccessToken token =
        GcpFixtures.downscope(
            GcpFixtures.source(outsider, dir), GcpFixtures.readWrite("lake", "wh/t/"));

    try (GCSFileIO io = GcpFixtures.fileIO(fake, token, Map.of())) {
      assertRefused(() -> readFirstByte(io, TABLE + "x"), 403);
      assertRefused(() -> write(io, TABLE + "y", new byte[] {1}), 403);
    }
    assertThat(fake.exists("lake", "wh/t/y")).isFalse();
    assertThat(fake.refusals())
        .isNotEmpty()
        .allSatisfy(
            r -> {
              assertThat(r.account()).isEqualTo(outsider.email());
              assertThat(r.reason()).isEqualTo("the account holds no role on bucket lake");
            });
  }

  private GCSFileIO readWrite(Map<String, String> extra) throws IOException {
    return GcpFixtures.fileIO(
        fake, GcpFixtures.downscope(vendor, GcpFixtures.readWrite("lake", "wh/t/")), extra);
  }

  private GCSFileIO readOnly() throws IOException {
    return GcpFixtures.fileIO(
        fake, GcpFixtures.downscope(vendor, GcpFixtures.readOnly("lake", "wh/t/")), Map.of());
  }

  private static int readFirstByte(GCSFileIO io, String location) throws IOException {
    try (SeekableInputStream in = io.newInputFile(location).newStream()) {
      return in.read();
    }
  }

  private static void write(GCSFileIO io, String location, byte[] data) throws IOException {
    try (OutputStream out = io.newOutputFile(location).create()) {
      out.write(data);
    }
  }

  /** The client failed with a StorageException of {@code status} somewhere in its causes. */
  private static void assertRefused(ThrowingCallable call, int status) {
    assertThatThrownBy(call)
        .satisfies(
            e -> {
              Throwable cause = e;
              while (cause != null && !(cause instanceof StorageException)) {
                cause = cause.getCause();
              }
              assertThat(cause).as("a StorageException in %s", e.toString()).isNotNull();
              assertThat(((StorageException) cause).getCode()).isEqualTo(status);
            });
  }

  private static byte[] random(int size) {
    byte[] data = new byte[size];
    new Random(size).nextBytes(data);
    return data;
  }
}
