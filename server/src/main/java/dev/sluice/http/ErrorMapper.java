package dev.sluice.http;

import static java.util.Objects.requireNonNull;

import dev.sluice.store.AlreadyExists;
import dev.sluice.store.Conflict;
import dev.sluice.store.NotEmpty;
import dev.sluice.store.NotFound;
import dev.sluice.store.StoreUnavailable;
import dev.sluice.vending.StorageBackends;
import dev.sluice.vending.VendingException;
import java.util.Map;
import java.util.Optional;
import org.apache.iceberg.exceptions.AlreadyExistsException;
import org.apache.iceberg.exceptions.BadRequestException;
import org.apache.iceberg.exceptions.CommitFailedException;
import org.apache.iceberg.exceptions.CommitStateUnknownException;
import org.apache.iceberg.exceptions.ForbiddenException;
import org.apache.iceberg.exceptions.NamespaceNotEmptyException;
import org.apache.iceberg.exceptions.NoSuchIcebergTableException;
import org.apache.iceberg.exceptions.NoSuchNamespaceException;
import org.apache.iceberg.exceptions.NoSuchPlanIdException;
import org.apache.iceberg.exceptions.NoSuchPlanTaskException;
import org.apache.iceberg.exceptions.NoSuchTableException;
import org.apache.iceberg.exceptions.NoSuchViewException;
import org.apache.iceberg.exceptions.NotAuthorizedException;
import org.apache.iceberg.exceptions.NotFoundException;
import org.apache.iceberg.exceptions.ServiceUnavailableException;
import org.apache.iceberg.exceptions.UnprocessableEntityException;
import org.apache.iceberg.exceptions.ValidationException;
import org.apache.iceberg.rest.responses.ErrorResponse;

/**
 * Maps exceptions to Iceberg {@code ErrorResponse}s. The type is the exception's simple name, which
 * Iceberg clients use to tell, say, a missing namespace from a missing table, or an {@code
 * IllegalArgumentException} (rethrown as such) from another bad request. Anything unexpected
 * becomes a 500 with a generic message; its details go to the log only.
 */
final class ErrorMapper {
  private static final Map<Class<? extends Exception>, Integer> CODES =
      Map.ofEntries(
          Map.entry(BadRequestException.class, 400),
          Map.entry(IllegalArgumentException.class, 400),
          Map.entry(ValidationException.class, 400),
          Map.entry(NotAuthorizedException.class, 401),
          Map.entry(ForbiddenException.class, 403),
          Map.entry(NoSuchNamespaceException.class, 404),
          Map.entry(NoSuchTableException.class, 404),
          Map.entry(NoSuchPlanIdException.class, 404),
          Map.entry(NoSuchPlanTaskException.class, 404),
          Map.entry(NoSuchIcebergTableException.class, 404),
          Map.entry(NoSuchViewException.class, 404),
          Map.entry(NotFoundException.class, 404),
          Map.entry(UnsupportedOperationException.class, 406),
          Map.entry(AlreadyExistsException.class, 409),
          Map.entry(CommitFailedException.class, 409),
          Map.entry(NamespaceNotEmptyException.class, 409),
          Map.entry(UnprocessableEntityException.class, 422),
          Map.entry(CommitStateUnknownException.class, 500),
          Map.entry(ServiceUnavailableException.class, 503),
          Map.entry(StoreUnavailable.class, 503),
          // A store outcome no layer above translated (e.g. the principal was deleted between
          // the route's check and its update): still the client's answer, not a server error.
          Map.entry(NotFound.class, 404),
          Map.entry(AlreadyExists.class, 409),
          Map.entry(Conflict.class, 409),
          Map.entry(NotEmpty.class, 409),
          Map.entry(VendingException.class, 503));

  /** Iceberg's names for the store's outcomes, which Iceberg clients map to their exceptions. */
  private static final Map<Class<? extends Exception>, String> STORE_TYPES =
      Map.of(
          NotFound.class, "NotFoundException",
          AlreadyExists.class, "AlreadyExistsException",
          Conflict.class, "CommitFailedException",
          NotEmpty.class, "NamespaceNotEmptyException");

  private final StorageBackends backends;

  /** {@code backends} recognise their storage clients' failures (503, not 500). */
  ErrorMapper(StorageBackends backends) {
    this.backends = requireNonNull(backends, "backends");
  }

  /** The status for a known exception type, walking up its class hierarchy; 500 otherwise. */
  static int statusOf(Throwable error) {
    for (Class<?> c = error.getClass(); c != null && c != Object.class; c = c.getSuperclass()) {
      Integer code = CODES.get(c);
      if (code != null) {
        return code;
      }
    }
    return 500;
  }

  ErrorResponse toResponse(Throwable error) {
    int status = statusOf(error);
    return map(
        error,
        status,
        status == 500 && !(error instanceof CommitStateUnknownException)
            ? backends.storageFailure(error)
            : Optional.empty());
  }

  /**
   * The answer for {@code error} where no storage client can have failed (a response that cannot be
   * serialized), or where only 4xx answers matter, which no storage failure changes.
   */
  static ErrorResponse withoutStorageFailures(Throwable error) {
    return map(error, statusOf(error), Optional.empty());
  }

  private static ErrorResponse map(
      Throwable error, int status, Optional<Throwable> storageFailure) {
    String type;
    String message;
    if (error instanceof StoreUnavailable) {
      type = "ServiceUnavailableException";
      message = "The catalog database is unavailable; retry later";
    } else if (error instanceof VendingException) {
      // Names the catalog and the provider's HTTP status; never a secret.
      type = "ServiceUnavailableException";
      message = error.getMessage();
    } else if (storageFailure.isPresent()) {
      // The catalog's own storage refused or failed (its role's policy, an outage): not a bug.
      status = 503;
      type = "ServiceUnavailableException";
      message =
          "The catalog's storage refused or failed the request ("
              + storageFailure.get().getClass().getSimpleName()
              + "); see the server log";
    } else if (status == 500 && !(error instanceof CommitStateUnknownException)) {
      type = "InternalServerError";
      message = "Internal error; see the server log";
    } else if (STORE_TYPES.containsKey(error.getClass())) {
      type = STORE_TYPES.get(error.getClass());
      message = error.getMessage() == null ? type : error.getMessage();
    } else {
      type = error.getClass().getSimpleName();
      message = error.getMessage() == null ? type : error.getMessage();
    }
    return ErrorResponse.builder().responseCode(status).withType(type).withMessage(message).build();
  }
}
