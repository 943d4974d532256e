package dev.sluice.testing;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.catchThrowable;

import com.azure.core.util.BinaryData;
import com.azure.storage.blob.BlobContainerClient;
import com.azure.storage.blob.BlobServiceClient;
import com.azure.storage.blob.sas.BlobContainerSasPermission;
import com.azure.storage.blob.sas.BlobServiceSasSignatureValues;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.util.HashMap;
import java.util.Map;
import org.apache.iceberg.azure.adlsv2.ADLSFileIO;
import org.apache.iceberg.io.InputFile;
import org.apache.iceberg.io.OutputFile;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Iceberg 1.10's {@link ADLSFileIO}, holding only a container user-delegation SAS, against Azurite:
 * what an Iceberg client does with credentials the catalog vends for Azure.
 *
 * <p>Observed: reads, writes and deletes go through the blob endpoint and work; the SAS's
 * permissions are enforced; {@code deleteFile} swallows a refusal (logs a warning), so a caller
 * must check {@code exists()} afterwards; {@code listPrefix} needs the Data Lake List Paths
 * operation, which Azurite lacks.
 */
@NeedsTestBeds
class AzuriteAdlsFileIoTest {
  private static AzuriteBed bed;
  private static BlobServiceClient oauth;

  @BeforeAll
  static void clients() {
    // Before ADLSFileIO's class initialises: its static JDK HTTP client takes the default
    // SSLContext once (installAsDefault fails if another test got there first).
    bed = AzuriteBed.bed().installAsDefault();
    oauth = bed.oauthClient(bed.tokenCredential());
  }

  private static OffsetDateTime now() {
    return OffsetDateTime.now(ZoneOffset.UTC);
  }

  private static String containerSas(String container, String permissions) {
    BlobServiceSasSignatureValues values =
        new BlobServiceSasSignatureValues(
                now().plusMinutes(30), BlobContainerSasPermission.parse(permissions))
            .setStartTime(now().minusMinutes(5));
    return oauth
        .getBlobContainerClient(container)
        .generateUserDelegationSas(
            values, oauth.getUserDelegationKey(now().minusMinutes(5), now().plusHours(1)));
  }

  private static ADLSFileIO fileIo(Map<String, String> props) {
    ADLSFileIO io = new ADLSFileIO();
    io.initialize(props);
    return io;
  }

  private static void write(OutputFile file, String text) throws IOException {
    try (OutputStream out = file.create()) {
      out.write(text.getBytes(UTF_8));
    }
  }

  private static String read(InputFile file) throws IOException {
    try (InputStream in = file.newStream()) {
      return new String(in.readAllBytes(), UTF_8);
    }
  }

  @Test
  void readWriteSasWritesReadsAndDeletes() throws IOException {
    String container = bed.newContainer("az-io-rw");
    String path = bed.abfss(container, "db/t/data/00000-a.txt");
    BlobContainerClient admin = bed.adminClient().getBlobContainerClient(container);
    try (ADLSFileIO io = fileIo(bed.adlsFileIoProperties(containerSas(container, "racwdl")))) {
      write(io.newOutputFile(path), "hello azure");
      assertThat(admin.getBlobClient("db/t/data/00000-a.txt").downloadContent().toString())
          .isEqualTo("hello azure");

      InputFile in = io.newInputFile(path);
      assertThat(in.exists()).isTrue();
      assertThat(in.getLength()).isEqualTo(11);
      assertThat(read(in)).isEqualTo("hello azure");

      io.deleteFile(path);
      assertThat(io.newInputFile(path).exists()).isFalse();
      assertThat(admin.getBlobClient("db/t/data/00000-a.txt").exists()).isFalse();
    }
  }

  @Test
  void readListSasCannotWriteAndItsRefusedDeleteIsSwallowed() throws IOException {
    String container = bed.newContainer("az-io-ro");
    BlobContainerClient admin = bed.adminClient().getBlobContainerClient(container);
    admin.getBlobClient("db/t/metadata/v1.json").upload(BinaryData.fromString("{}"), true);
    try (ADLSFileIO io = fileIo(bed.adlsFileIoProperties(containerSas(container, "rl")))) {
      assertThat(read(io.newInputFile(bed.abfss(container, "db/t/metadata/v1.json"))))
          .isEqualTo("{}");

      String newFile = bed.abfss(container, "db/t/data/00000-b.txt");
      Throwable refused = catchThrowable(() -> write(io.newOutputFile(newFile), "nope"));
      // Observed: IOException from the output stream, caused by 403
      // AuthorizationPermissionMismatch.
      assertThat(refused).isInstanceOf(IOException.class);
      assertThat(AzureRefusal.of(refused).status()).isEqualTo(403);
      assertThat(AzureRefusal.of(refused).code()).isEqualTo("AuthorizationPermissionMismatch");
      assertThat(admin.getBlobClient("db/t/data/00000-b.txt").exists()).isFalse();

      // ADLSFileIO.deleteFile catches the 403 and only logs it: no exception, object remains.
      io.deleteFile(bed.abfss(container, "db/t/metadata/v1.json"));
      assertThat(admin.getBlobClient("db/t/metadata/v1.json").exists()).isTrue();
    }
  }

  @Test
  void sasForAnotherContainerReadsNothing() {
    String mine = bed.newContainer("az-io-mine");
    String theirs = bed.newContainer("az-io-theirs");
    bed.adminClient()
        .getBlobContainerClient(theirs)
        .getBlobClient("x.txt")
        .upload(BinaryData.fromString("secret"), true);
    try (ADLSFileIO io = fileIo(bed.adlsFileIoProperties(containerSas(mine, "racwdl")))) {
      Throwable refused = catchThrowable(() -> read(io.newInputFile(bed.abfss(theirs, "x.txt"))));
      assertThat(AzureRefusal.of(refused).status()).isEqualTo(403);
    }
  }

  @Test
  void listPrefixNeedsTheDataLakeEndpointWhichAzuriteLacks() {
    String container = bed.newContainer("az-io-list");
    try (ADLSFileIO io = fileIo(bed.adlsFileIoProperties(containerSas(container, "racwdl")))) {
      Throwable failure =
          catchThrowable(() -> io.listPrefix(bed.abfss(container, "db/t/")).iterator().hasNext());
      // Observed: DataLakeStorageException 400 with an empty body (no error code) for the dfs
      // List Paths request: Azurite does not implement it.
      AzureRefusal refusal = AzureRefusal.of(failure);
      assertThat(refusal.status()).isEqualTo(400);
      assertThat(refusal.code()).isNull();
    }
  }

  @Test
  void adlsConnectionStringMustBeAnEndpointUrl() {
    String container = bed.newContainer("az-io-cs");
    Map<String, String> props =
        new HashMap<>(bed.adlsFileIoProperties(containerSas(container, "racwdl")));
    props.put("adls.connection-string." + AzuriteBed.DFS_HOST, bed.connectionStringWithoutKey());
    try (ADLSFileIO io = fileIo(props)) {
      // ADLSFileIO hands the value to DataLakeFileSystemClientBuilder.endpoint(..), a URL parser.
      assertThatThrownBy(() -> io.newInputFile(bed.abfss(container, "x.txt")).exists())
          .isInstanceOf(IllegalArgumentException.class)
          .hasMessageContaining("malformed");
    }
  }
}
