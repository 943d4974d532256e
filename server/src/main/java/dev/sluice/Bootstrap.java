package dev.sluice;

import static java.util.Objects.requireNonNull;

import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.sluice.auth.SecretHasher;
import dev.sluice.authz.Caller;
import dev.sluice.config.ConfigException;
import dev.sluice.management.CatalogAdmin;
import dev.sluice.store.AlreadyExists;
import dev.sluice.store.PrincipalRecord;
import dev.sluice.store.Store;
import dev.sluice.vending.StorageBackends;
import java.io.PrintStream;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * First-start setup: the root principal (from {@code SLUICE_BOOTSTRAP_CREDENTIALS} or generated and
 * printed once) and the {@code quickstart} catalog on the local warehouse.
 */
final class Bootstrap {
  static final String ROOT = "root";
  static final String QUICKSTART = "quickstart";

  /** The principal role that administers the service; created by the schema migration. */
  static final String SERVICE_ADMIN = Caller.SERVICE_ADMIN;

  private static final Logger LOG = LoggerFactory.getLogger(Bootstrap.class);

  private Bootstrap() {}

  static void run(
      Store store,
      StorageBackends backends,
      String bootstrapCredentials,
      boolean quickstart,
      Path warehouse,
      PrintStream console) {
    requireNonNull(store, "store");
    if (store.access().getPrincipal(ROOT).isPresent()) {
      if (bootstrapCredentials != null) {
        LOG.info(
            "root principal exists; SLUICE_BOOTSTRAP_CREDENTIALS applies to the first start only and is ignored");
      }
      return;
    }
    String clientId;
    String secret;
    boolean generated = bootstrapCredentials == null || bootstrapCredentials.isBlank();
    if (generated) {
      clientId = SecretHasher.randomToken(8);
      secret = SecretHasher.randomToken(16);
    } else {
      int colon = bootstrapCredentials.indexOf(':');
      if (colon <= 0 || colon == bootstrapCredentials.length() - 1) {
        throw new ConfigException("SLUICE_BOOTSTRAP_CREDENTIALS must be <client-id>:<secret>");
      }
      clientId = bootstrapCredentials.substring(0, colon);
      secret = bootstrapCredentials.substring(colon + 1);
    }
    try {
      store
          .access()
          .createPrincipal(
              new PrincipalRecord(
                  ROOT, clientId, SecretHasher.hash(secret), Map.of(), System.currentTimeMillis()),
              List.of(SERVICE_ADMIN));
    } catch (AlreadyExists e) {
      return; // another replica bootstrapped first
    }
    LOG.info("created the root principal");
    if (generated) {
      console.println("Sluice root credentials (shown once, store them now):");
      console.println("  client id: " + clientId);
      console.println("  secret:    " + secret);
      console.println("  credential=" + clientId + ":" + secret);
    }
    if (quickstart && store.getCatalog(QUICKSTART).isEmpty()) {
      String location = warehouse.toUri().toString().replaceFirst("^file:///", "file:/");
      ObjectNode storage = JsonNodeFactory.instance.objectNode();
      storage.put("storageType", "FILE");
      storage.putArray("allowedLocations").add(location);
      new CatalogAdmin(store, backends, Map.of(), 900)
          .create(QUICKSTART, "INTERNAL", Map.of("default-base-location", location), storage);
      LOG.info("created catalog {} at {}", QUICKSTART, location);
    }
  }
}
