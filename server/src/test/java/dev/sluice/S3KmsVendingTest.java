package dev.sluice;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import dev.sluice.testing.CephRgw;
import dev.sluice.testing.NeedsTestBeds;
import dev.sluice.testing.RgwVendingBed;
import dev.sluice.testing.WriterAndReader;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import org.apache.iceberg.DataFile;
import org.apache.iceberg.Table;
import org.apache.iceberg.catalog.TableIdentifier;
import org.apache.iceberg.io.InputFile;
import org.apache.iceberg.rest.RESTCatalog;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import software.amazon.awssdk.awscore.exception.AwsServiceException;
import software.amazon.awssdk.core.sync.RequestBody;
import software.amazon.awssdk.services.s3.S3Client;
import software.amazon.awssdk.services.s3.model.HeadObjectResponse;
import software.amazon.awssdk.services.s3.model.S3Exception;
import software.amazon.awssdk.services.s3.model.ServerSideEncryption;
import software.amazon.awssdk.services.sts.StsClient;

/**
 * SSE-KMS on a real Ceph RGW 16 (Pacific) with its {@code testing} KMS backend (two keys,
 * scripts/ceph-rgw.sh): a catalog whose {@code currentKmsKey} is RGW's key 1 and whose {@code
 * allowedKmsKeys} holds key 2. An Iceberg client holding no keys writes through S3FileIO with the
 * vended properties; RGW stores the objects encrypted with key 1; a reader's vended credential
 * reads them; another table's credential is refused by RGW.
 *
 * <p>Measured on this RGW and asserted here, so that the docs stay true: (1) its STS refuses any
 * session policy with a {@code kms:} statement (400 MalformedPolicyDocument), so Sluice sends none
 * for a store's own key ids; (2) it does not check KMS permissions for SSE-KMS objects (a session
 * without any {@code kms:} grant reads them: RGW's KMS is its own, not IAM's); (3) it enforces the
 * S3 condition keys {@code s3:x-amz-server-side-encryption(-aws-kms-key-id)} on PutObject, so a
 * vended writer cannot write with another key; (4) not on CreateMultipartUpload. What RGW cannot
 * show (the KMS statements themselves) is checked offline against AWS's documented grammar in
 * {@code vending/s3/SessionPolicyGoldenTest}.
 */
@NeedsTestBeds
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class S3KmsVendingTest {
  private static final String CATALOG = "vault";
  private RgwVendingBed bed;
  private CephRgw rgw;
  private String key1;
  private String key2;
  private String[] writer;
  private String[] reader;

  @BeforeAll
  void start() throws Exception {
    bed = RgwVendingBed.start("kms");
    rgw = bed.rgw();
    key1 = rgw.kmsKey(1);
    key2 = rgw.kmsKey(2);
    bed.createCatalog(
        CATALOG,
        "wh",
        "wh",
        Map.of(),
        Map.of(
            "stsEndpoint", rgw.endpoint(), "currentKmsKey", key1, "allowedKmsKeys", List.of(key2)));
    bed.createNamespace(CATALOG, "sales");
    WriterAndReader people =
        WriterAndReader.create(bed.admin())
            .writes(CATALOG, List.of("sales"))
            .reads(CATALOG, List.of("sales"));
    writer = people.writer();
    reader = people.reader();
  }

  @AfterAll
  void stop() throws Exception {
    if (bed != null) {
      bed.close();
    }
  }

  private HeadObjectResponse head(String location) {
    try (S3Client admin = rgw.adminClient()) {
      return admin.headObject(b -> b.bucket(bed.bucket()).key(bed.key(location, "")));
    }
  }

  @Test
  void writtenWithTheCurrentKeyReadableByAReaderAndNotByAnotherTable() throws Exception {
    String content = "rows only the orders table may read";
    DataFile file;
    try (RESTCatalog client = bed.client(CATALOG, writer)) {
      Table orders =
          client.createTable(TableIdentifier.of("sales", "orders"), RgwVendingBed.SCHEMA);
      client.createTable(TableIdentifier.of("sales", "other"), RgwVendingBed.SCHEMA);
      assertThat(orders.io().properties())
          .containsEntry("s3.sse.type", "kms")
          .containsEntry("s3.sse.key", key1);
      file = RgwVendingBed.writeDataFile(orders, "f.parquet", content);
      orders.newAppend().appendFile(file).commit();
    }
    // The engine's object, and the metadata file the catalog wrote with its own FileIO.
    HeadObjectResponse data = head(file.location());
    assertThat(data.serverSideEncryption()).isEqualTo(ServerSideEncryption.AWS_KMS);
    assertThat(data.ssekmsKeyId()).isEqualTo(key1);
    JsonNode loaded =
        bed.load(bed.server().token(reader[0], reader[1]), CATALOG, "sales", "orders", true);
    HeadObjectResponse meta = head(loaded.at("/metadata-location").asText());
    assertThat(meta.serverSideEncryption()).isEqualTo(ServerSideEncryption.AWS_KMS);
    assertThat(meta.ssekmsKeyId()).isEqualTo(key1);

    // A reader's vended session, whose policy has no kms: statement, reads it: RGW decrypts for
    // any identity the session policy lets GET the object.
    String readerPolicyKms = loaded.at("/storage-credentials/0/config/s3.sse.key").asText();
    assertThat(readerPolicyKms).isEqualTo(key1);
    try (S3Client s3 = bed.vendedClient(loaded)) {
      assertThat(
              new String(
                  CephRgw.getBytes(s3, bed.bucket(), bed.key(file.location(), "")),
                  StandardCharsets.UTF_8))
          .isEqualTo(content);
    }
    try (RESTCatalog client = bed.client(CATALOG, reader)) {
      InputFile in =
          client
              .loadTable(TableIdentifier.of("sales", "orders"))
              .io()
              .newInputFile(file.location());
      try (var stream = in.newStream()) {
        assertThat(new String(stream.readAllBytes(), StandardCharsets.UTF_8)).isEqualTo(content);
      }
    }
    // Another table's credential: RGW refuses (403), encrypted or not.
    JsonNode other =
        bed.load(bed.server().token(reader[0], reader[1]), CATALOG, "sales", "other", true);
    try (S3Client s3 = bed.vendedClient(other)) {
      RgwVendingBed.assertS3Status(
          403, () -> CephRgw.getBytes(s3, bed.bucket(), bed.key(file.location(), "")));
    }
  }

  /** The write session's PutObject condition pins the key; RGW 16 enforces it on PutObject. */
  @Test
  void aWriterCannotPutWithAnotherKeyOrWithoutKms() throws Exception {
    try (RESTCatalog client = bed.client(CATALOG, writer)) {
      client.createTable(TableIdentifier.of("sales", "pinned"), RgwVendingBed.SCHEMA);
    }
    JsonNode loaded =
        bed.load(bed.server().token(writer[0], writer[1]), CATALOG, "sales", "pinned", true);
    String base = bed.tableKey(CATALOG, "sales", "pinned");
    try (S3Client s3 = bed.vendedClient(loaded)) {
      String other = base + "data/other-key.bin";
      assertThatThrownBy(() -> putKms(s3, other, key2))
          .isInstanceOfSatisfying(
              S3Exception.class, e -> assertThat(e.statusCode()).isEqualTo(403));
      assertThat(CephRgw.stored(bed.bucket(), other)).isEqualTo("absent");
      String sseS3 = base + "data/aes.bin";
      assertThatThrownBy(
              () ->
                  s3.putObject(
                      b ->
                          b.bucket(bed.bucket())
                              .key(sseS3)
                              .serverSideEncryption(ServerSideEncryption.AES256),
                      RequestBody.fromBytes(new byte[] {1})))
          .isInstanceOfSatisfying(
              S3Exception.class, e -> assertThat(e.statusCode()).isEqualTo(403));
      assertThat(CephRgw.stored(bed.bucket(), sseS3)).isEqualTo("absent");
      String good = base + "data/current-key.bin";
      putKms(s3, good, key1);
      assertThat(head(bed.s3(good)).ssekmsKeyId()).isEqualTo(key1);
      // Measured, not wanted: RGW evaluates no encryption condition when a multipart upload starts
      // (as with ACLs), so a writer may start one under another key.
      String started =
          s3.createMultipartUpload(
                  b ->
                      b.bucket(bed.bucket())
                          .key(base + "data/mpu.bin")
                          .serverSideEncryption(ServerSideEncryption.AWS_KMS)
                          .ssekmsKeyId(key2))
              .uploadId();
      assertThat(started).isNotEmpty();
      s3.abortMultipartUpload(
          b -> b.bucket(bed.bucket()).key(base + "data/mpu.bin").uploadId(started));
    }
  }

  private void putKms(S3Client s3, String key, String kmsKey) {
    s3.putObject(
        b ->
            b.bucket(bed.bucket())
                .key(key)
                .serverSideEncryption(ServerSideEncryption.AWS_KMS)
                .ssekmsKeyId(kmsKey),
        RequestBody.fromBytes("x".getBytes(StandardCharsets.UTF_8)));
  }

  /**
   * Pacific's STS refuses a session policy with any {@code kms:} statement, even a well-formed one
   * AWS accepts: why Sluice names no store's own key id in a policy (and why a key ARN cannot be
   * used on this store).
   */
  @Test
  void rgwsStsRefusesASessionPolicyWithAKmsStatement() {
    String policy =
        "{\"Version\":\"2012-10-17\",\"Statement\":[{\"Effect\":\"Allow\",\"Action\":[\"s3:GetObject\"],"
            + "\"Resource\":[\"arn:aws:s3:::"
            + bed.bucket()
            + "/wh/*\"]},{\"Effect\":\"Allow\",\"Action\":[\"kms:Decrypt\"],"
            + "\"Resource\":[\"arn:aws:kms:us-east-1:111122223333:key/1234abcd-12ab-34cd-56ef-1234567890ab\"]}]}";
    try (StsClient sts = rgw.adminStsClient()) {
      assertThatThrownBy(
              () ->
                  sts.assumeRole(
                      b ->
                          b.roleArn(rgw.roleArn())
                              .roleSessionName("kms-probe")
                              .durationSeconds(900)
                              .policy(policy)))
          .isInstanceOfSatisfying(
              AwsServiceException.class,
              e -> {
                assertThat(e.statusCode()).isEqualTo(400);
                assertThat(e.awsErrorDetails().rawResponse().asUtf8String())
                    .contains("<Code>MalformedPolicyDocument</Code>");
              });
    }
  }
}
