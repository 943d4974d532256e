package dev.sluice.management;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.sluice.authz.Authorizer;
import dev.sluice.authz.Caller;
import dev.sluice.store.CatalogRecord;
import dev.sluice.vending.StorageBackends;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The audit record of a change to where a catalog's credentials come from or where its tables may
 * live: who, which catalog, and the restricted values before and after, with anything that looks
 * like a secret replaced by {@code <redacted>}.
 */
public final class StorageChangeAudit {
  private static final Logger LOG = LoggerFactory.getLogger(StorageChangeAudit.class);
  static final String ACTION = "changeCatalogStorage";
  private static final ObjectMapper JSON = new ObjectMapper();

  private StorageChangeAudit() {}

  public static void record(
      Authorizer authz,
      StorageBackends backends,
      Caller caller,
      CatalogAdmin.Change change,
      CatalogRecord updated) {
    String detail = describe(backends, change);
    LOG.info(
        "Catalog {} storage identity changed by {} (request {}): {}",
        updated.name(),
        caller.principal(),
        caller.requestId(),
        detail);
    authz.record(caller, ACTION, updated.name(), "catalog " + updated.name(), true, detail);
  }

  /** {@code {"before":{...},"after":{...}}} of the restricted values only, secrets redacted. */
  static String describe(StorageBackends backends, CatalogAdmin.Change change) {
    ObjectNode out = JSON.createObjectNode();
    ObjectNode before = out.putObject("before");
    ObjectNode after = out.putObject("after");
    for (String field : change.restricted()) {
      if (field.equals("storageConfigInfo")) {
        before.set(field, backends.redacted(readTree(change.before().storageConfig())));
        after.set(field, backends.redacted(change.after().storageConfig()));
      } else {
        String key = field.substring("properties.".length());
        before.put(field, change.before().properties().get(key));
        after.put(field, change.after().properties().get(key));
      }
    }
    return out.toString();
  }

  private static JsonNode readTree(String json) {
    try {
      return JSON.readTree(json);
    } catch (JsonProcessingException e) {
      throw new IllegalStateException("Corrupt storage configuration", e);
    }
  }
}
