package dev.sluice.vending;

import java.util.List;
import java.util.Optional;

/**
 * One backend's vending for one storage profile: turns a request into short-lived credentials
 * scoped to exactly the requested locations and mode. Knows nothing of HTTP, the store, RBAC or
 * caching ({@link VendingService} owns those).
 */
public interface CredentialVendor extends AutoCloseable {
  /**
   * Why this backend cannot express {@code location} safely in a credential (for S3, characters
   * that an IAM policy reads as wildcards or variables), or empty. Checked after the generic escape
   * checks of {@code LocationSafety}; a location refused here is never vended for.
   */
  default Optional<String> unsafe(String location) {
    return Optional.empty();
  }

  /**
   * Why this backend cannot scope one credential to all of a table's {@code locations} together
   * (for R2: locations in two buckets), or empty. A table it refuses is served without credentials.
   */
  default Optional<String> unscopable(List<String> locations) {
    return Optional.empty();
  }

  /**
   * Whether one vend can express {@code request} within this backend's own limits (a session
   * policy's size, an access boundary's rules, a number of SAS tokens). A scan plan's credential is
   * narrowed only as far as this allows ({@link FileScopes}). By default a backend names no exact
   * objects and takes any prefixes it can scope together.
   */
  default boolean fits(VendingRequest request) {
    return request.objects().isEmpty() && unscopable(request.locations()).isEmpty();
  }

  /**
   * The cache key: built only from what changes the credentials this vendor would return (the
   * service keeps keys of different profiles apart). Must have value equality.
   */
  Object cacheKey(VendingRequest request);

  /**
   * Vends one or more credentials, each with its own prefix, together covering every requested
   * location. Throws {@link VendingException} when the provider refuses or cannot be reached; never
   * returns a credential broader than asked for.
   */
  List<StorageCredential> vend(VendingRequest request);

  @Override
  default void close() {}
}
