package dev.sluice.vending;

import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import org.apache.iceberg.io.FileIO;

/**
 * One storage backend (FILE, S3, ...): its profile type, the credential sources it accepts, its
 * vendor and the catalog's own FileIO. A backend lives in its own package and is registered with
 * one line in the wiring ({@code dev.sluice.StandardBackends}); nothing else names it.
 *
 * @param <P> the backend's one profile type
 */
public interface StorageBackend<P extends StorageProfile> {
  /** {@code storageConfigInfo.storageType}, upper case. */
  String storageType();

  /** The profile type this backend parses and opens clients for. */
  Class<P> profileType();

  /** The location schemes of {@code allowedLocations} ({@code s3}, {@code s3a}, ...). */
  Set<String> schemes();

  /**
   * Spellings of one place that its locations may use ({@code s3a://b/p} for {@code s3://b/p}): the
   * location key must fold each pair into one, checked when the backend is registered. Empty (the
   * default) for a backend whose every place has one spelling.
   */
  default List<SameStorage> sameStorage() {
    return List.of();
  }

  /** The credential source types it accepts from the server YAML; empty when it needs none. */
  List<CredentialSourceType> credentialSourceTypes();

  /**
   * The {@code storageConfigInfo} keys the console's catalog form offers for this backend, in order
   * (besides the keys every catalog has: allowed locations and the credential source). Each must be
   * a key {@link #parse} accepts. Empty (the default) for a backend with none.
   */
  default List<StorageField> formFields() {
    return List.of();
  }

  /**
   * Every key its {@code storageConfigInfo} may hold besides {@code storageType} and {@code
   * allowedLocations}: a definition with any other key is refused, naming it (a misspelled key
   * would otherwise be silently ignored). The management API's OpenAPI document lists the same keys
   * per type, checked by its contract test.
   */
  Set<String> configKeys();

  /**
   * Keys of its {@code storageConfigInfo} that are secret although their names do not say so (S3's
   * {@code externalId}); names ending in secret, password, token or key always are.
   */
  default Set<String> secretKeys() {
    return Set.of();
  }

  /**
   * The keys a namespace's storage identity may hold (for S3: {@code roleArn}, {@code externalId},
   * {@code credentialSource}): the identity that vends for every table below the namespace in place
   * of the catalog's own. Empty (the default) when this backend cannot take one; an identity is
   * then refused, naming the storage type.
   */
  default Set<String> identityKeys() {
    return Set.of();
  }

  /**
   * {@code profile} (the catalog's) vending as a namespace's storage identity: everything else
   * (locations, templates, lifetimes, endpoints) stays the catalog's. {@link StorageBackends} has
   * already checked that every key is one of {@link #identityKeys()} and that a named credential
   * source exists with a type this backend accepts. The result must differ from {@code profile} and
   * from the profile of any other identity (it is their cache key), and answer {@link
   * StorageProfile#identityScope()} with {@code input.namespace()}. Every error is an {@link
   * IllegalArgumentException} naming its key ({@code storageIdentity.roleArn ...}).
   */
  default P withIdentity(P profile, IdentityInput input) {
    throw new IllegalArgumentException(
        "storageType " + storageType() + " does not take a storage identity for a namespace");
  }

  /**
   * True when {@code error} is this backend's storage client refusing or failing a request of the
   * catalog's own FileIO (an SDK's service or transport exception): answered 503 naming no detail,
   * never a 500.
   */
  default boolean isStorageFailure(Throwable error) {
    return false;
  }

  /**
   * Parses and validates {@code storageConfigInfo}. {@link StorageBackends} has already checked
   * {@code storageType}, that every allowed location has one of {@link #schemes()}, and that a
   * named credential source exists with a type this backend accepts. Every error is an {@link
   * IllegalArgumentException} naming its key ({@code storageConfigInfo.region ...}).
   */
  P parse(Input input);

  /**
   * The vendor for {@code profile}, or empty when the backend never vends (the profile offers no
   * delegation). Opened once per profile and closed when the catalog's storage changes. Its
   * provider calls keep to {@code timeouts} where its client library can bound them.
   */
  Optional<CredentialVendor> openVendor(
      P profile, CredentialSource source, VendorMetrics metrics, StorageTimeouts.Provider timeouts);

  /**
   * The catalog's own FileIO (metadata files, purge) with its credential source, never a vended
   * credential, its calls bounded by {@code timeouts}. The caller confines it to the catalog's
   * allowed locations and closes it.
   */
  FileIO openCatalogIO(P profile, CredentialSource source, StorageTimeouts.CatalogIo timeouts);

  /**
   * The remote signer for {@code profile}, or empty when the profile does not offer {@link
   * Delegation.Kind#REMOTE_SIGNING} (or the backend cannot sign). Its {@link
   * RequestSigner#scopedIdentity()} mints the store-confined credentials it signs with ({@code
   * metrics} time the provider, whose calls keep to {@code timeouts}). Opened once per profile and
   * closed when the catalog's storage changes.
   */
  default Optional<RequestSigner> openSigner(
      P profile,
      CredentialSource source,
      VendorMetrics metrics,
      StorageTimeouts.Provider timeouts) {
    return Optional.empty();
  }

  /**
   * What the storage self-check ({@code vending.verify.StorageVerifier}) needs of this backend: an
   * engine-side client from a vended credential and how to read the store's refusals. Empty (the
   * default) when the backend has no self-check yet; the check then answers that it is not
   * available for this storage type.
   */
  default Optional<StoreProbes> probes() {
    return Optional.empty();
  }

  /**
   * What {@link #withIdentity} gets: the namespace that holds the identity (dotted, for messages
   * and {@link StorageProfile#identityScope()}), the identity (a copy it may read), and the
   * credential source it names (null when it names none or it is read back from the store).
   */
  record IdentityInput(String namespace, ObjectNode identity, CredentialSource source) {
    /** The key prefix every error names. */
    public static final String KEY = "storageIdentity.";
  }

  /**
   * What a parse gets: the catalog, its {@code storageConfigInfo} (a copy it may read), its allowed
   * locations (already checked for scheme), the shortest credential lifetime the server allows, and
   * the credential source it names (null when none is named or the catalog is read back from the
   * store).
   */
  record Input(
      String catalog,
      ObjectNode info,
      List<String> allowedLocations,
      int minDurationSeconds,
      CredentialSource source) {
    public Input {
      allowedLocations = List.copyOf(allowedLocations);
    }

    /** The key prefix every error names. */
    public static final String KEY = "storageConfigInfo.";
  }
}
