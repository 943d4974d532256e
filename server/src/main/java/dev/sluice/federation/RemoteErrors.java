package dev.sluice.federation;

import java.util.function.Supplier;
import org.apache.iceberg.exceptions.AlreadyExistsException;
import org.apache.iceberg.exceptions.BadRequestException;
import org.apache.iceberg.exceptions.CommitFailedException;
import org.apache.iceberg.exceptions.CommitStateUnknownException;
import org.apache.iceberg.exceptions.ForbiddenException;
import org.apache.iceberg.exceptions.NamespaceNotEmptyException;
import org.apache.iceberg.exceptions.NoSuchNamespaceException;
import org.apache.iceberg.exceptions.NoSuchTableException;
import org.apache.iceberg.exceptions.NoSuchViewException;
import org.apache.iceberg.exceptions.NotAuthorizedException;
import org.apache.iceberg.exceptions.NotFoundException;
import org.apache.iceberg.exceptions.RESTException;
import org.apache.iceberg.exceptions.ServiceFailureException;
import org.apache.iceberg.exceptions.ServiceUnavailableException;
import org.apache.iceberg.exceptions.ValidationException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * What a remote catalog's failure becomes for Sluice's caller. Iceberg's REST client already turns
 * the remote's 4xx answers into Iceberg's exceptions (404 {@code NoSuch*}, 409 {@code
 * AlreadyExists}/{@code CommitFailed}, 400): those pass unchanged, since the engine's client maps
 * them back to the same statuses. The remote's 403 is said to come from the remote. Everything else
 * (no answer, a timeout, a 5xx, a 401 or 419, which mean Sluice's own credential for the remote is
 * wrong) is a 503 naming the catalog and the remote's host, never its secret, never a 500.
 */
final class RemoteErrors {
  private static final Logger LOG = LoggerFactory.getLogger(RemoteErrors.class);

  private RemoteErrors() {}

  static <T> T call(Remote remote, Supplier<T> work) {
    try {
      return work.get();
    } catch (RuntimeException e) {
      throw translate(remote, e);
    }
  }

  /**
   * Connecting to the remote (its config, a token): any failure is the remote's being unavailable
   * to Sluice (503), whatever it says, since no caller's input is in it.
   */
  static <T> T opening(Remote remote, Supplier<T> work) {
    try {
      return work.get();
    } catch (ServiceUnavailableException e) {
      throw e;
    } catch (RuntimeException e) {
      LOG.warn("Cannot connect to {}: {}", remote, e.toString());
      throw new ServiceUnavailableException("Cannot connect to %s: %s", remote, brief(e));
    }
  }

  static void run(Remote remote, Runnable work) {
    call(
        remote,
        () -> {
          work.run();
          return null;
        });
  }

  /** Which remote a message names: Sluice's catalog and the remote's host. */
  record Remote(String catalog, String host) {
    @Override
    public String toString() {
      return "the remote catalog of federated catalog " + catalog + " (" + host + ")";
    }
  }

  static RuntimeException translate(Remote remote, RuntimeException e) {
    if (e instanceof RemoteTables.ListingTooLong || e instanceof Refused) {
      return e; // decided here, already naming the remote
    }
    if (e instanceof NoSuchTableException
        || e instanceof NoSuchViewException
        || e instanceof NoSuchNamespaceException
        || e instanceof AlreadyExistsException
        || e instanceof NamespaceNotEmptyException
        || e instanceof BadRequestException
        || e instanceof ValidationException
        || e instanceof IllegalArgumentException
        || e instanceof UnsupportedOperationException) {
      return e;
    }
    if (e instanceof CommitFailedException) {
      return e;
    }
    if (e instanceof NotFoundException) {
      return e;
    }
    if (e instanceof ForbiddenException) {
      return new ForbiddenException("%s refused: %s", remote, e.getMessage());
    }
    if (e instanceof CommitStateUnknownException) {
      LOG.warn("Commit state unknown at {}: {}", remote, e.getMessage());
      return new ServiceUnavailableException(
          "%s did not say whether the commit applied (%s): load the table before retrying",
          remote, e.getMessage());
    }
    if (e instanceof NotAuthorizedException) {
      LOG.warn("{} refused Sluice's credential: {}", remote, e.getMessage());
      return new ServiceUnavailableException(
          "%s refused Sluice's own credential for it: the operator must fix the connection",
          remote);
    }
    if (e instanceof ServiceUnavailableException
        || e instanceof ServiceFailureException
        || e instanceof RESTException) {
      LOG.warn("{} is unavailable: {}", remote, e.toString());
      return new ServiceUnavailableException("%s is unavailable: %s", remote, brief(e));
    }
    // Anything else Iceberg's client throws (a response it cannot read, a closed client).
    LOG.warn("Call to {} failed", remote, e);
    return new ServiceUnavailableException("%s is unavailable: %s", remote, brief(e));
  }

  /** A refusal Sluice decided while talking to the remote (a location rule): passed as it is. */
  static final class Refused extends ForbiddenException {
    Refused(String message) {
      super("%s", message);
    }
  }

  /** The failure without its stack, and without a cause chain that may quote a request. */
  private static String brief(RuntimeException e) {
    String message = e.getMessage();
    Throwable cause = e.getCause();
    String because = cause == null ? "" : " (" + cause.getClass().getSimpleName() + ")";
    return (message == null ? e.getClass().getSimpleName() : message) + because;
  }
}
