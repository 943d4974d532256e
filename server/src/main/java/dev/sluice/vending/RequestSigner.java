package dev.sluice.vending;

import java.util.Optional;

/**
 * One backend's remote signing for one storage profile: parses what an engine's storage request
 * would touch, and signs it. Knows nothing of HTTP routes, the store or RBAC: {@link
 * VendingService} and the route decide whether a request may be signed, and with which credential.
 *
 * <p>A signature cannot forbid headers added after it (SigV4 lets a client send unsigned {@code
 * x-amz-*} headers, and stores read header spellings the parser never sees), so the parser is not
 * the boundary: every signature is made with a credential the store itself confines to the table's
 * locations and the caller's access mode, minted by {@link #scopedIdentity()} and cached by {@link
 * VendingService} like a vended one. A profile with no way to scope signs with the catalog's own
 * identity only where its operator accepted that ({@link #scopedIdentity()} empty).
 */
public interface RequestSigner extends AutoCloseable {
  /**
   * What {@code request} would touch and the access it needs. Throws {@link
   * IllegalArgumentException}, with a message naming the bad part, for anything this signer will
   * never sign: a URI of another host or bucket style, a relative or encoded path segment, a query
   * parameter the operation does not need, a bucket-wide or multi-object operation, a header that
   * is not one the engines' S3 clients send, a region other than the catalog's.
   */
  RequestTarget target(StorageRequest request);

  /**
   * The vendor of the credentials this signer signs with: each one confined by the store to one
   * table's locations and access mode. Empty when the profile cannot scope and its operator
   * accepted signing as the catalog's own identity, so that the parser is the only boundary.
   */
  Optional<CredentialVendor> scopedIdentity();

  /**
   * Signs {@code request}, which {@link #target} accepted and the caller may make, with {@code
   * identity}: a credential of {@link #scopedIdentity()}, or empty when there is none.
   */
  SignedRequest sign(StorageRequest request, Optional<StorageCredential> identity);

  @Override
  default void close() {}
}
