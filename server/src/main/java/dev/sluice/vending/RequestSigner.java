package dev.sluice.vending;

/**
 * One backend's remote signing for one storage profile: parses what an engine's storage request
 * would touch, and signs it with the catalog's own identity. Knows nothing of HTTP routes, the
 * store or RBAC: {@link VendingService} and the route decide whether a request may be signed.
 */
public interface RequestSigner extends AutoCloseable {
  /**
   * What {@code request} would touch and the access it needs. Throws {@link
   * IllegalArgumentException}, with a message naming the bad part, for anything this signer will
   * never sign: a URI of another host or bucket style, a relative or encoded path segment, a query
   * parameter the operation does not need, a bucket-wide or multi-object operation, a header that
   * reaches other objects, a region other than the catalog's.
   */
  RequestTarget target(StorageRequest request);

  /** Signs {@code request}, which {@link #target} accepted and the caller may make. */
  SignedRequest sign(StorageRequest request);

  @Override
  default void close() {}
}
