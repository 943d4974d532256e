package dev.sluice.vending;

import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * A catalog's storage configuration ({@code storageConfigInfo}), validated by its backend: one
 * implementation per backend, in the backend's package. Equal profiles make equal credentials, so a
 * profile is also the identity of the clients opened for it.
 *
 * <p>Not {@code sealed}: Java allows a sealed type's implementations in other packages only inside
 * a named module, and each backend keeps its profile in its own package. {@link StorageBackends} is
 * the closed list instead: a type it does not register cannot be parsed.
 */
public interface StorageProfile {
  /** The backend's {@code storageType}, upper case ({@code FILE}, {@code S3}, ...). */
  String storageType();

  /** The catalog this profile belongs to, for messages and attribution. */
  String catalog();

  /**
   * The namespace whose storage identity this profile vends as ({@link
   * StorageBackend#withIdentity}), or empty for the catalog's own identity. Clients (vendors,
   * signers) are held per catalog and identity scope.
   */
  default String identityScope() {
    return "";
  }

  /** Where the catalog's tables may live, as configured. */
  List<String> allowedLocations();

  /** The server-config credential source this profile uses, or empty when it needs none. */
  Optional<String> credentialSource();

  /** The delegation kinds the catalog offers to engines; empty when engines bring their own. */
  Set<Delegation.Kind> offered();

  /**
   * True when delegation happens only for clients that ask for it (the access-delegation header).
   */
  boolean delegateOnlyOnRequest();

  /**
   * The config keys that tell an engine where to refresh this backend's credentials ({@code
   * endpoint} is relative to the catalog URI). Most Iceberg FileIOs read the generic client keys.
   */
  default Map<String, String> refreshConfig(String endpoint) {
    return Map.of(
        ClientProperties.REFRESH_CREDENTIALS_ENDPOINT,
        endpoint,
        ClientProperties.REFRESH_CREDENTIALS_ENABLED,
        "true");
  }

  /**
   * The config keys that turn on remote signing in an engine's FileIO and tell it where to send
   * each request ({@code endpoint}, the table's signing path relative to the catalog URI); empty
   * for a backend that cannot sign. No storage key is ever among them.
   */
  default Map<String, String> signingConfig(String endpoint) {
    return Map.of();
  }

  /**
   * Why a table or view may not use these locations on this backend, naming the property ({@code
   * location} or a {@code write.*.path}), or empty. Checked at create and at every commit (a 400);
   * for backends that can vend only for some shapes of location (R2: key prefixes in one bucket).
   */
  default Optional<String> unusableLocations(String location, Map<String, String> properties) {
    return Optional.empty();
  }
}
