package dev.sluice.testing.gcp;

import static java.util.Objects.requireNonNull;

import java.util.Set;
import java.util.function.Consumer;

/**
 * Decides each Cloud Storage request as Google does for a bearer token: who the token is (401 when
 * absent, unknown or expired), then the permission against the token's OAuth scopes, its account's
 * own IAM (roles/storage.objectAdmin on the account's buckets only) and, for a downscoped token,
 * its Credential Access Boundary: the effective permissions are the intersection. Every refusal is
 * recorded.
 */
final class GcsAuthorizer {
  private static final Set<String> READ_WRITE_SCOPES =
      Set.of(
          "https://www.googleapis.com/auth/cloud-platform",
          "https://www.googleapis.com/auth/devstorage.full_control",
          "https://www.googleapis.com/auth/devstorage.read_write");
  private static final Set<String> READ_ONLY_SCOPES =
      Set.of(
          "https://www.googleapis.com/auth/cloud-platform.read-only",
          "https://www.googleapis.com/auth/devstorage.read_only");

  private final IssuedTokens tokens;
  private final Accounts accounts;
  private final Consumer<Refusal> refusals;
  private volatile boolean boundariesEnforced = true;

  GcsAuthorizer(IssuedTokens tokens, Accounts accounts, Consumer<Refusal> refusals) {
    this.tokens = requireNonNull(tokens, "tokens");
    this.accounts = requireNonNull(accounts, "accounts");
    this.refusals = requireNonNull(refusals, "refusals");
  }

  /** See {@link GoogleCloudFake#setAccessBoundariesEnforced}. */
  void setBoundariesEnforced(boolean enforced) {
    this.boundariesEnforced = enforced;
  }

  /** True when a token with {@code scopes} may use Cloud Storage for {@code permission}. */
  static boolean scopesAllow(Set<String> scopes, String permission) {
    for (String scope : scopes) {
      if (READ_WRITE_SCOPES.contains(scope)) {
        return true;
      }
      if (READ_ONLY_SCOPES.contains(scope)
          && (permission.equals(StorageRoles.OBJECTS_GET)
              || permission.equals(StorageRoles.OBJECTS_LIST))) {
        return true;
      }
    }
    return false;
  }

  /** True when some OAuth scope lets a token use Cloud Storage at all. */
  static boolean anyStorageScope(Set<String> scopes) {
    return scopes.stream()
        .anyMatch(s -> READ_WRITE_SCOPES.contains(s) || READ_ONLY_SCOPES.contains(s));
  }

  /**
   * The token of {@code call} if it holds {@code permission} on {@code object} of {@code bucket} (a
   * list when {@code object} is null, whose prefix is {@code listPrefix}); otherwise a recorded
   * refusal, thrown as the GCS error to answer.
   */
  IssuedTokens.Issued authorize(
      Http.Call call, String permission, String bucket, String object, String listPrefix) {
    String resourceName =
        "projects/_/buckets/" + bucket + (object == null ? "" : "/objects/" + object);
    String token = call.bearer().orElse(null);
    if (token == null) {
      throw refuse(call, 401, bucket, object, permission, null, "no bearer token");
    }
    IssuedTokens.Issued issued = tokens.find(token).orElse(null);
    if (issued == null) {
      throw refuse(call, 401, bucket, object, permission, null, "a token the fake never issued");
    }
    if (!issued.liveAt(tokens.now())) {
      throw refuse(call, 401, bucket, object, permission, issued.account(), "expired token");
    }
    if (!scopesAllow(issued.scopes(), permission)) {
      throw refuse(
          call,
          403,
          bucket,
          object,
          permission,
          issued.account(),
          "insufficient OAuth scopes " + issued.scopes());
    }
    if (!accounts.holdsObjectAdmin(issued.account(), bucket)) {
      throw refuse(
          call,
          403,
          bucket,
          object,
          permission,
          issued.account(),
          "the account holds no role on bucket " + bucket);
    }
    if (boundariesEnforced
        && issued.boundary().isPresent()
        && !issued.boundary().get().grants(permission, bucket, resourceName, listPrefix)) {
      throw refuse(
          call,
          403,
          bucket,
          object,
          permission,
          issued.account(),
          "outside the access boundary: no rule grants "
              + permission
              + " on "
              + resourceName
              + (listPrefix == null ? "" : " with objectListPrefix '" + listPrefix + "'"));
    }
    return issued;
  }

  private GcsError refuse(
      Http.Call call,
      int status,
      String bucket,
      String object,
      String permission,
      String account,
      String reason) {
    refusals.accept(
        new Refusal(status, call.method(), bucket, object, permission, account, reason));
    if (status == 401) {
      return GcsError.unauthorized();
    }
    if (reason.startsWith("insufficient OAuth scopes")) {
      return new GcsError(403, "insufficientPermissions", "Insufficient Permission");
    }
    return GcsError.forbidden(
        account
            + " does not have "
            + permission
            + " access to the Google Cloud Storage "
            + (object == null ? "bucket" : "object")
            + ". Permission '"
            + permission
            + "' denied on resource (or it may not exist).");
  }
}
