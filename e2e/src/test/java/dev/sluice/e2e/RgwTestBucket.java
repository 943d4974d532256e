package dev.sluice.e2e;

import static org.assertj.core.api.Assertions.fail;

import com.fasterxml.jackson.databind.JsonNode;
import java.net.URI;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import software.amazon.awssdk.auth.credentials.AwsBasicCredentials;
import software.amazon.awssdk.auth.credentials.AwsCredentials;
import software.amazon.awssdk.auth.credentials.AwsSessionCredentials;
import software.amazon.awssdk.auth.credentials.StaticCredentialsProvider;
import software.amazon.awssdk.core.checksums.RequestChecksumCalculation;
import software.amazon.awssdk.core.checksums.ResponseChecksumValidation;
import software.amazon.awssdk.http.urlconnection.UrlConnectionHttpClient;
import software.amazon.awssdk.regions.Region;
import software.amazon.awssdk.services.s3.S3Client;
import software.amazon.awssdk.services.s3.model.Delete;
import software.amazon.awssdk.services.s3.model.ObjectIdentifier;
import software.amazon.awssdk.services.s3.model.S3Object;

/**
 * A fresh bucket on the Ceph RGW bed that {@code ./scripts/test-all.sh} starts, seen with the bed's
 * admin keys (what the test checks the store with, never what the engine under test uses); closing
 * empties and deletes it. Also the checks every vending test starts with: the bed's environment is
 * there, and no ambient AWS credentials could stand in for vended ones.
 */
final class RgwTestBucket implements AutoCloseable {
  /**
   * The server config of the tests that run Sluice on the RGW bed: its own RGW identity as the
   * credential source {@code rgw}. Block style on purpose: YAML reads an unquoted {@code ${VAR}}
   * inside a flow mapping ({@code { accessKeyId: ${VAR} }}) as a nested mapping and the file fails
   * to parse, because the server expands variables after parsing.
   */
  static final String SERVER_CONFIG =
      """
      storage:
        credentialSources:
          rgw:
            type: static
            accessKeyId: ${SLUICE_TEST_RGW_ACCESS_KEY}
            secretAccessKey: ${SLUICE_TEST_RGW_SECRET_KEY}
      """;

  static final List<String> RGW_ENV =
      List.of(
          "SLUICE_TEST_RGW_ENDPOINT",
          "SLUICE_TEST_RGW_REGION",
          "SLUICE_TEST_RGW_ACCESS_KEY",
          "SLUICE_TEST_RGW_SECRET_KEY",
          "SLUICE_TEST_RGW_ROLE_ARN");

  /** Where the SDK default credential chain would find keys; any of them would void the test. */
  static final List<String> AMBIENT_AWS_ENV =
      List.of(
          "AWS_ACCESS_KEY_ID",
          "AWS_SECRET_ACCESS_KEY",
          "AWS_SESSION_TOKEN",
          "AWS_PROFILE",
          "AWS_WEB_IDENTITY_TOKEN_FILE",
          "AWS_CONTAINER_CREDENTIALS_FULL_URI",
          "AWS_CONTAINER_CREDENTIALS_RELATIVE_URI",
          "AWS_ENDPOINT_URL",
          "AWS_ENDPOINT_URL_S3");

  private final S3Client admin;
  private final String name;

  private RgwTestBucket(S3Client admin, String name) {
    this.admin = admin;
    this.name = name;
  }

  /**
   * The {@link #RGW_ENV} variables by name. Fails (never skips) {@code testName} when one is
   * missing, or when one of {@link #AMBIENT_AWS_ENV} is set.
   */
  static Map<String, String> environment(String testName) {
    Map<String, String> rgw = new LinkedHashMap<>();
    List<String> missing = new ArrayList<>();
    for (String variable : RGW_ENV) {
      String value = System.getenv(variable);
      if (value == null || value.isBlank()) {
        missing.add(variable);
      } else {
        rgw.put(variable, value);
      }
    }
    if (!missing.isEmpty()) {
      fail(
          "%s needs a Ceph RGW with STS, described by the environment variables %s (missing: %s). "
              + "Run the tests with ./scripts/test-all.sh, which starts one and exports them.",
          testName, RGW_ENV, missing);
    }
    List<String> ambient = AMBIENT_AWS_ENV.stream().filter(n -> System.getenv(n) != null).toList();
    if (!ambient.isEmpty()) {
      fail(
          "The environment sets %s: the AWS SDK could use them instead of vended credentials, so "
              + "%s could not prove anything. Unset them.",
          ambient, testName);
    }
    return rgw;
  }

  /** Creates {@code <prefix>-<8 hex>} with the admin keys of the bed {@code rgw} describes. */
  static RgwTestBucket create(Map<String, String> rgw, String prefix) {
    S3Client admin =
        client(
            rgw,
            AwsBasicCredentials.create(
                rgw.get("SLUICE_TEST_RGW_ACCESS_KEY"), rgw.get("SLUICE_TEST_RGW_SECRET_KEY")));
    String name = prefix + "-" + ProcessSupport.randomHex(4);
    try {
      admin.createBucket(b -> b.bucket(name));
    } catch (RuntimeException e) {
      admin.close();
      throw e;
    }
    return new RgwTestBucket(admin, name);
  }

  /**
   * An S3 client of the bed {@code rgw} with a table's vended credential ({@code config}: the
   * {@code s3.*} keys of a table response's storage credential), as an engine would use it.
   */
  static S3Client vendedClient(Map<String, String> rgw, JsonNode config) {
    return client(
        rgw,
        AwsSessionCredentials.create(
            config.path("s3.access-key-id").asText(),
            config.path("s3.secret-access-key").asText(),
            config.path("s3.session-token").asText()));
  }

  private static S3Client client(Map<String, String> rgw, AwsCredentials credentials) {
    return S3Client.builder()
        .endpointOverride(URI.create(rgw.get("SLUICE_TEST_RGW_ENDPOINT")))
        .region(Region.of(rgw.get("SLUICE_TEST_RGW_REGION")))
        .credentialsProvider(StaticCredentialsProvider.create(credentials))
        .forcePathStyle(true)
        .requestChecksumCalculation(RequestChecksumCalculation.WHEN_REQUIRED)
        .responseChecksumValidation(ResponseChecksumValidation.WHEN_REQUIRED)
        .httpClient(UrlConnectionHttpClient.create())
        .build();
  }

  String name() {
    return name;
  }

  /** The object key of an {@code s3://bucket/key} URI in this bucket; fails for another bucket. */
  String keyOf(String s3Uri) {
    String start = "s3://" + name + "/";
    if (!s3Uri.startsWith(start)) {
      fail("%s is not in the bucket %s", s3Uri, name);
    }
    return s3Uri.substring(start.length());
  }

  /** The keys under {@code prefix}, sorted. */
  List<String> keys(String prefix) {
    return objects(prefix).stream().map(S3Object::key).sorted().toList();
  }

  private List<S3Object> objects(String prefix) {
    return admin.listObjectsV2Paginator(b -> b.bucket(name).prefix(prefix)).contents().stream()
        .toList();
  }

  /** Empties and deletes the bucket; a failure is reported, not thrown (cleanup only). */
  @Override
  public void close() {
    try {
      List<S3Object> objects = objects("");
      for (int i = 0; i < objects.size(); i += 1000) {
        List<ObjectIdentifier> ids =
            objects.subList(i, Math.min(objects.size(), i + 1000)).stream()
                .map(o -> ObjectIdentifier.builder().key(o.key()).build())
                .toList();
        admin.deleteObjects(d -> d.bucket(name).delete(Delete.builder().objects(ids).build()));
      }
      admin.deleteBucket(b -> b.bucket(name));
    } catch (RuntimeException e) {
      System.err.println("could not remove the test bucket " + name + ": " + e);
    } finally {
      admin.close();
    }
  }
}
