package dev.sluice.http;

import static org.assertj.core.api.Assertions.assertThat;

import dev.sluice.StandardBackends;
import dev.sluice.store.AlreadyExists;
import dev.sluice.store.Conflict;
import dev.sluice.store.NotEmpty;
import dev.sluice.store.NotFound;
import org.apache.iceberg.rest.responses.ErrorResponse;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.core.exception.SdkClientException;

class ErrorMapperTest {
  private static final ErrorMapper MAPPER = new ErrorMapper(StandardBackends.create());

  @Test
  void aStorageClientsFailureIsA503WhereTheBackendsAreKnown() {
    RuntimeException failure =
        new RuntimeException(SdkClientException.create("Unable to execute HTTP request"));
    assertMapped(
        failure,
        503,
        "ServiceUnavailableException",
        "The catalog's storage refused or failed the request (SdkClientException); see the server"
            + " log");
    assertThat(ErrorMapper.withoutStorageFailures(failure).code())
        .as("without the backends, nothing tells it from a bug")
        .isEqualTo(500);
  }

  @Test
  void storeOutcomesThatReachTheRouteAreClientErrorsWithIcebergTypes() {
    // e.g. a principal deleted between the rotate route's check and its update (found by FuzzTest)
    assertMapped(
        new NotFound("Principal not found: p"), 404, "NotFoundException", "Principal not found: p");
    assertMapped(
        new AlreadyExists("Catalog already exists: c"),
        409,
        "AlreadyExistsException",
        "Catalog already exists: c");
    assertMapped(
        new Conflict("changed concurrently"), 409, "CommitFailedException", "changed concurrently");
    assertMapped(new NotEmpty("not empty"), 409, "NamespaceNotEmptyException", "not empty");
  }

  @Test
  void anythingUnexpectedIsA500WithoutItsMessage() {
    assertMapped(
        new NullPointerException("secret detail"),
        500,
        "InternalServerError",
        "Internal error; see the server log");
  }

  @Test
  void jettysOwnErrorsAreErrorResponses() throws Exception {
    for (int status : new int[] {400, 413, 414, 431, 505}) {
      ErrorResponse parsed =
          org.apache.iceberg.rest.responses.ErrorResponseParser.fromJson(
              new String(JettyErrors.json(status), "UTF-8"));
      assertThat(parsed.code()).isEqualTo(status);
      assertThat(parsed.type()).isNotBlank();
      assertThat(parsed.message()).isNotBlank();
    }
  }

  private static void assertMapped(Exception e, int status, String type, String message) {
    ErrorResponse response = MAPPER.toResponse(e);
    assertThat(response.code()).isEqualTo(status);
    assertThat(response.type()).isEqualTo(type);
    assertThat(response.message()).isEqualTo(message);
  }
}
