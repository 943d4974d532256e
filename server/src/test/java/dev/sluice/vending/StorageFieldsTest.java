package dev.sluice.vending;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.sluice.StandardBackends;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * Each backend's catalog-form fields ({@link StorageBackend#formFields}) are keys its parser really
 * reads: a wrong value in any of them is refused naming that key. So the console, which builds its
 * form from these, never offers a key the server would ignore.
 */
class StorageFieldsTest {
  private static final ObjectMapper JSON = new ObjectMapper();
  private static final StorageBackends BACKENDS = StandardBackends.create();

  /** The credential sources the valid profiles name. */
  private static final Map<String, CredentialSource> SOURCES =
      Map.of(
          "keys",
          BACKENDS.parseSource(
              "keys", Map.of("type", "static", "accessKeyId", "AKID", "secretAccessKey", "s")),
          "adc",
          BACKENDS.parseSource("adc", Map.of("type", "google-adc")),
          "entra",
          BACKENDS.parseSource(
              "entra",
              Map.of(
                  "type",
                  "azure-client-secret",
                  "tenantId",
                  "00000000-0000-0000-0000-000000000001",
                  "clientId",
                  "00000000-0000-0000-0000-000000000002",
                  "clientSecret",
                  "s")));

  /** A storageConfigInfo each backend parses, and the base location it lies under. */
  private static final Map<String, String[]> VALID =
      Map.of(
          "S3",
          new String[] {
            "{\"roleArn\":\"arn:aws:iam::1:role/x\",\"region\":\"us-east-1\","
                + "\"credentialSource\":\"keys\"}",
            "s3://b/wh"
          },
          "R2",
          new String[] {
            "{\"accountId\":\"0123456789abcdef0123456789abcdef\",\"credentialSource\":\"keys\","
                + "\"endpoint\":\"https://0123456789abcdef0123456789abcdef.r2.cloudflarestorage.com\"}",
            "s3://b/wh"
          },
          "GCS",
          new String[] {"{\"credentialSource\":\"adc\"}", "gs://b/wh"},
          "AZURE",
          new String[] {
            "{\"tenantId\":\"00000000-0000-0000-0000-000000000001\","
                + "\"credentialSource\":\"entra\"}",
            "abfss://lake@acct.dfs.core.windows.net/wh"
          },
          "FILE",
          new String[] {"{}", "file:/tmp/wh"});

  @Test
  void everyBackendIsCoveredAndEveryVendingBackendOffersFields() {
    assertThat(BACKENDS.formFields().keySet()).containsExactlyInAnyOrderElementsOf(VALID.keySet());
    BACKENDS
        .formFields()
        .forEach(
            (type, fields) -> {
              if (!type.equals("FILE")) {
                assertThat(fields).as(type).isNotEmpty();
              }
              assertThat(fields.stream().map(StorageField::key).distinct().count())
                  .as("%s's keys are distinct", type)
                  .isEqualTo(fields.size());
            });
  }

  @Test
  void aWrongValueInAnyFieldIsRefusedNamingItsKey() throws Exception {
    for (Map.Entry<String, List<StorageField>> backend : BACKENDS.formFields().entrySet()) {
      String type = backend.getKey();
      parse(type, valid(type)); // the base parses
      for (StorageField field : backend.getValue()) {
        ObjectNode info = valid(type);
        switch (field.kind()) {
          case TEXT -> info.putObject(field.key()).put("not", "text");
          case NUMBER -> info.put(field.key(), "not-a-number");
          case BOOLEAN -> info.put(field.key(), "maybe");
          case LIST -> info.put(field.key(), 42);
        }
        assertThatThrownBy(() -> parse(type, info))
            .as("%s.%s", type, field.key())
            .isInstanceOf(IllegalArgumentException.class)
            .hasMessageContaining("storageConfigInfo." + field.key());
      }
    }
  }

  private static ObjectNode valid(String type) throws Exception {
    ObjectNode info = (ObjectNode) JSON.readTree(VALID.get(type)[0]);
    info.put("storageType", type);
    info.putArray("allowedLocations").add(VALID.get(type)[1]);
    return info;
  }

  private static void parse(String type, ObjectNode info) {
    BACKENDS.parse("cat", info, VALID.get(type)[1], SOURCES, 60);
  }
}
