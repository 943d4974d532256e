package dev.sluice.testing;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;

import com.azure.core.exception.HttpResponseException;
import com.azure.storage.blob.models.BlobStorageException;
import com.azure.storage.file.datalake.models.DataLakeStorageException;
import java.util.Arrays;
import java.util.Set;
import org.assertj.core.api.ThrowableAssert.ThrowingCallable;

/**
 * A refusal by the store (Azurite or Azure Storage), read from the SDK's exception: its HTTP status
 * and Azure error code ({@code x-ms-error-code}). Found anywhere in the cause chain, since
 * Iceberg's FileIO wraps SDK exceptions (e.g. in {@code UncheckedIOException}).
 *
 * @param status the HTTP status, e.g. 403
 * @param code the Azure error code, e.g. {@code AuthorizationPermissionMismatch}; null if absent
 * @param cause the SDK exception
 */
public record AzureRefusal(int status, String code, HttpResponseException cause) {
  /**
   * The codes Azure Storage (and Azurite) give when a credential does not allow a request: wrong
   * permissions, wrong resource or resource type, bad signature, expired or not-yet-valid
   * credential, bad bearer token.
   */
  public static final Set<String> AUTHORIZATION_CODES =
      Set.of(
          "AuthorizationPermissionMismatch",
          "AuthorizationFailure",
          "AuthorizationResourceTypeMismatch",
          "AuthorizationServiceMismatch",
          "AuthenticationFailed",
          "InvalidAuthenticationInfo",
          "NoAuthenticationInformation");

  /**
   * The store's refusal in {@code failure}'s cause chain.
   *
   * @throws AssertionError when the chain holds no {@link HttpResponseException}
   */
  public static AzureRefusal of(Throwable failure) {
    for (Throwable t = failure; t != null; t = t.getCause()) {
      if (t instanceof HttpResponseException e && e.getResponse() != null) {
        return new AzureRefusal(e.getResponse().getStatusCode(), codeOf(e), e);
      }
    }
    throw new AssertionError("not a refusal by the store (no HttpResponseException)", failure);
  }

  /**
   * Runs {@code call} and asserts the store refused it with 403 and an {@link #AUTHORIZATION_CODES
   * authorization code}; or, when {@code codes} are given, with one of those.
   */
  public static AzureRefusal assertForbidden(ThrowingCallable call, String... codes) {
    Throwable thrown = catchThrowable(call);
    assertThat(thrown).as("the store should have refused the request").isNotNull();
    AzureRefusal refusal = of(thrown);
    assertThat(refusal.status()).as("HTTP status of %s", refusal).isEqualTo(403);
    Set<String> expected =
        codes.length == 0 ? AUTHORIZATION_CODES : Set.copyOf(Arrays.asList(codes));
    assertThat(refusal.code()).as("error code of %s", refusal).isIn(expected);
    return refusal;
  }

  private static String codeOf(HttpResponseException e) {
    if (e instanceof BlobStorageException b && b.getErrorCode() != null) {
      return b.getErrorCode().toString();
    }
    if (e instanceof DataLakeStorageException d && d.getErrorCode() != null) {
      return d.getErrorCode();
    }
    return e.getResponse().getHeaderValue("x-ms-error-code");
  }

  @Override
  public String toString() {
    return status + " " + code + " (" + cause.getClass().getSimpleName() + ")";
  }
}
