package dev.sluice.vending;

/**
 * One backend's vending: turns a request into a short-lived credential scoped to exactly the
 * requested locations and mode. Knows nothing of HTTP, the store or RBAC.
 */
public interface CredentialVendor {
  /**
   * Vends a credential. Throws {@link VendingException} when the provider refuses or cannot be
   * reached; never returns a credential broader than asked for.
   */
  StorageCredential vend(VendingRequest request);
}
