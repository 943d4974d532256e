package dev.sluice.client;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * Reads Sluice's answers: {@code {"storage-credentials":[{"prefix","config":{s3.*}}]}} (Iceberg's
 * LoadCredentialsResponse) and {@code {"locations":[{"namespace":[..],"table","locations":[..]}]}}
 * (readable-table-locations). Errors name the offending field, never a value.
 */
final class CredentialsParser {
  static final String ACCESS_KEY_ID = "s3.access-key-id";
  static final String SECRET_ACCESS_KEY = "s3.secret-access-key";
  static final String SESSION_TOKEN = "s3.session-token";
  static final String EXPIRES_AT_MS = "s3.session-token-expires-at-ms";

  private CredentialsParser() {}

  static List<VendedCredential> parse(Map<String, Object> body, TableRef table)
      throws SluiceException {
    Object list = body.get("storage-credentials");
    if (list == null) {
      return List.of();
    }
    if (!(list instanceof List<?> entries)) {
      throw invalid("storage-credentials is not an array", table);
    }
    List<VendedCredential> out = new ArrayList<>();
    for (Object entry : entries) {
      if (!(entry instanceof Map<?, ?> credential)) {
        throw invalid("a storage credential is not an object", table);
      }
      if (!(credential.get("prefix") instanceof String prefix)) {
        throw invalid("a storage credential has no prefix", table);
      }
      if (!(credential.get("config") instanceof Map<?, ?> config)) {
        throw invalid("the storage credential for " + prefix + " has no config", table);
      }
      String keyId = string(config, ACCESS_KEY_ID);
      String secret = string(config, SECRET_ACCESS_KEY);
      if (keyId == null || secret == null) {
        // Not an S3 credential (another backend's): not for us.
        continue;
      }
      long expiresAt = 0;
      String expiry = string(config, EXPIRES_AT_MS);
      if (expiry != null) {
        try {
          expiresAt = Long.parseLong(expiry.trim());
        } catch (NumberFormatException e) {
          throw invalid(EXPIRES_AT_MS + " of " + prefix + " is not a number", table);
        }
      }
      out.add(
          new VendedCredential(prefix, keyId, secret, string(config, SESSION_TOKEN), expiresAt));
    }
    return out;
  }

  static List<ReadableTable> readableTables(Map<String, Object> body) throws SluiceException {
    if (!(body.get("locations") instanceof List<?> entries)) {
      throw new SluiceException(200, "Sluice's readable-table-locations answer has no locations");
    }
    List<ReadableTable> out = new ArrayList<>();
    for (Object entry : entries) {
      if (!(entry instanceof Map<?, ?> t)
          || !(t.get("namespace") instanceof List<?> namespace)
          || !(t.get("table") instanceof String name)
          || !(t.get("locations") instanceof List<?> locations)) {
        throw new SluiceException(
            200,
            "Sluice's readable-table-locations answer has an entry without namespace, table "
                + "and locations");
      }
      out.add(new ReadableTable(new TableRef(strings(namespace), name), strings(locations)));
    }
    return out;
  }

  private static List<String> strings(List<?> values) throws SluiceException {
    List<String> out = new ArrayList<>(values.size());
    for (Object v : values) {
      if (!(v instanceof String s)) {
        throw new SluiceException(
            200, "Sluice's readable-table-locations answer holds a non-string name or location");
      }
      out.add(s);
    }
    return out;
  }

  private static String string(Map<?, ?> config, String key) {
    return config.get(key) instanceof String s && !s.isEmpty() ? s : null;
  }

  private static SluiceException invalid(String what, TableRef table) {
    return new SluiceException(200, "Sluice's credentials for table " + table + ": " + what);
  }
}
