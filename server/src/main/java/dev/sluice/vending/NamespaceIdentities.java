package dev.sluice.vending;

import static java.util.Objects.requireNonNull;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.HashSet;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;

/**
 * Namespaces' storage identities, generic over backends: an identity is a small JSON object whose
 * keys the catalog's backend declares ({@link StorageBackend#identityKeys()}) and whose meaning
 * only that backend knows ({@link StorageBackend#withIdentity}). Nothing here names a cloud.
 */
public final class NamespaceIdentities {
  private final StorageBackends backends;

  NamespaceIdentities(StorageBackends backends) {
    this.backends = requireNonNull(backends, "backends");
  }

  /** A namespace's storage identity as stored (keys sorted) and the profile it vends with. */
  public record Parsed(ObjectNode identity, StorageProfile profile) {
    public Parsed {
      requireNonNull(identity, "identity");
      requireNonNull(profile, "profile");
    }
  }

  /**
   * Checks {@code identity} against the backend of the catalog's {@code profile}: a non-empty JSON
   * object of the keys that backend takes (a backend that takes none refuses every identity, naming
   * the storage type), a named credential source checked against {@code sources} (null to skip that
   * check: an identity read back from the store, whose server config may have changed), then the
   * backend's own rules. {@code namespace} holds the identity (dotted). Every error is an {@link
   * IllegalArgumentException} naming the key.
   */
  public Parsed parse(
      StorageProfile profile,
      String namespace,
      JsonNode identity,
      Map<String, CredentialSource> sources) {
    requireNonNull(profile, "profile");
    requireNonNull(namespace, "namespace");
    StorageBackend<?> backend = backends.backendOf(profile);
    if (backend.identityKeys().isEmpty()) {
      throw new IllegalArgumentException(
          "storageType "
              + profile.storageType()
              + " does not take a storage identity for a namespace (catalog "
              + profile.catalog()
              + ")");
    }
    Set<String> keys = new TreeSet<>(backend.identityKeys());
    if (identity == null || !identity.isObject() || identity.isEmpty()) {
      throw new IllegalArgumentException(
          "storageIdentity must be a JSON object of "
              + keys
              + " (storageType "
              + profile.storageType()
              + ")");
    }
    ObjectNode sorted = JsonNodeFactory.instance.objectNode();
    Set<String> given = new TreeSet<>();
    identity.fieldNames().forEachRemaining(given::add);
    for (String field : given) {
      if (!keys.contains(field)) {
        throw new IllegalArgumentException(
            "Unknown field: "
                + StorageBackend.IdentityInput.KEY
                + field
                + " (storageType "
                + profile.storageType()
                + " takes "
                + String.join(", ", keys)
                + ")");
      }
      sorted.set(field, identity.get(field).deepCopy());
    }
    CredentialSource source = null;
    JsonNode sourceName = sorted.get("credentialSource");
    if (sources != null && sourceName != null && sourceName.isTextual()) {
      source =
          StorageBackends.checkedSource(
              backend, StorageBackend.IdentityInput.KEY, sourceName.asText(), sources);
    }
    StorageBackend.IdentityInput input =
        new StorageBackend.IdentityInput(namespace, sorted.deepCopy(), source);
    return new Parsed(sorted, derive(backend, profile, input));
  }

  private static <P extends StorageProfile> StorageProfile derive(
      StorageBackend<P> backend, StorageProfile profile, StorageBackend.IdentityInput input) {
    P derived = backend.withIdentity(backend.profileType().cast(profile), input);
    if (derived.equals(profile) || !derived.identityScope().equals(input.namespace())) {
      // The profile is the vended credentials' cache key: one equal to the catalog's, or to
      // another namespace's, would share their credentials.
      throw new IllegalStateException(
          "Backend " + backend.storageType() + " made a profile that does not tell its identity");
    }
    return derived;
  }

  /**
   * A copy of {@code identity} fit for an audit record or a log, redacted as {@link
   * StorageBackends#redacted} redacts a catalog's {@code storageConfigInfo}: the backend's declared
   * secret keys ({@code externalId}) and names ending in secret, password, token or key.
   */
  public JsonNode redacted(String storageType, JsonNode identity) {
    JsonNode copy = identity.deepCopy();
    Set<String> declared = new HashSet<>();
    StorageBackend<?> backend = backends.backendOrNull(storageType);
    if (backend != null) {
      backend.secretKeys().forEach(k -> declared.add(k.toLowerCase(Locale.ROOT)));
    }
    StorageBackends.redact(copy, declared);
    return copy;
  }
}
