package dev.sluice.config;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.fasterxml.jackson.databind.node.TextNode;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import dev.sluice.auth.ExternalJwtVerifier;
import dev.sluice.auth.TokenThrottle;
import dev.sluice.auth.VerifiedSecrets;
import dev.sluice.store.DatabaseConfig;
import dev.sluice.tls.TlsSettings;
import dev.sluice.tls.TrustedProxies;
import dev.sluice.vending.CredentialSource;
import dev.sluice.vending.StorageBackends;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Iterator;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.function.Function;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The server's configuration: one YAML file, {@code ${VAR}} expanded from the environment,
 * validated when loaded. Every error names the key at fault. Unknown keys are errors, so a typo
 * never silently falls back to a default.
 *
 * <pre>
 * server:   { host: 127.0.0.1, port: 8181, maxRequestBytes: 8388608,
 *             idempotencyKeyLifetime: PT30M,    # ISO-8601, PT1M..P7D; advertised in /v1/config
 *             tls: { certificate: /etc/sluice/tls.crt, privateKey: /etc/sluice/tls.key,
 *                    # or keyStore: /etc/sluice/tls.p12, keyStorePassword: "${TLS_PASSWORD}"
 *                    reloadIntervalSeconds: 10,
 *                    clientAuth: { caFile: /etc/sluice/admin-ca.pem } },  # mTLS for management
 *             allowPlaintext: false,   # true: plaintext off loopback, behind a TLS proxy
 *             trustedProxies: [10.0.0.0/8],    # whose Forwarded / X-Forwarded-* are believed
 *             limits: { maxConnections: 1000, maxConcurrentRequests: 128,   # see ServerLimits
 *                       maxConcurrentRequestsPerPrincipal: 32, inFlightBodyBytes: 67108864,
 *                       idleTimeoutSeconds: 30, minRequestDataRate: 1024,
 *                       principalRequestsPerSecond: 0, principalBurst: 0 } }
 * dataDir:  ./sluice-data
 * database: { url: "jdbc:postgresql://db/sluice", user: sluice, password: "${PGPASSWORD}",
 *             maxPoolSize: 10, connectionTimeoutMs: 5000,
 *             pointerCache: true, pointerCacheMaxEntries: 100000 }  # see docs/DEPLOYMENT.md
 * auth:     { tokenLifetimeSeconds: 3600,
 *             verifiedSecretCacheSeconds: 60,   # 0..300; 0 hashes every token request's secret
 *             tokenThrottle: { enabled: true, clientBurst: 10, clientFailuresPerMinute: 10,
 *                              addressBurst: 50, addressFailuresPerMinute: 50, maxTrackedKeys: 100000 },
 *             oidc: { issuer: https://idp/, audience: sluice, jwksUrl: https://idp/jwks,
 *                     principalClaim: sub, rolesClaim: roles } }   # optional
 * bootstrap: { quickstartCatalog: true }
 * storage:
 *   credentialSources:             # the catalog's own storage identities, named by catalogs;
 *                                  # each type belongs to a backend (these three: S3)
 *     rgw: { type: static, accessKeyId: "${RGW_KEY}", secretAccessKey: "${RGW_SECRET}" }
 *     aws: { type: default-chain }
 *     irsa: { type: web-identity, roleArn: arn:aws:iam::1:role/x, webIdentityTokenFile: /var/run/token }
 *           # optional: maxAttempts: 5, minTtlSeconds: 300, refreshJitterSeconds: 60, stsEndpoint: URL
 *   vendingCache: { ttlCapSeconds: 1800, maxEntries: 10000 }
 *   vendingMinDurationSeconds: 900   # lower only on a test bed whose STS allows it (Ceph RGW)
 * </pre>
 */
public record ServerConfig(
    String host,
    int port,
    int maxRequestBytes,
    Path dataDir,
    DatabaseConfig database,
    Duration tokenLifetime,
    ExternalJwtVerifier.Settings oidc,
    boolean quickstartCatalog,
    Map<String, CredentialSource> credentialSources,
    Duration vendingCacheTtlCap,
    long vendingCacheMaxEntries,
    int vendingMinDurationSeconds,
    TokenThrottle.Limits tokenThrottle,
    Duration verifiedSecretTtl,
    Duration idempotencyKeyLifetime,
    TlsSettings tls,
    boolean allowPlaintext,
    TrustedProxies trustedProxies,
    ServerLimits limits) {

  /** How long an {@code Idempotency-Key} answer is kept, and advertised in {@code /v1/config}. */
  public static final Duration DEFAULT_IDEMPOTENCY_KEY_LIFETIME = Duration.ofMinutes(30);

  private static final Duration MIN_IDEMPOTENCY_KEY_LIFETIME = Duration.ofMinutes(1);
  private static final Duration MAX_IDEMPOTENCY_KEY_LIFETIME = Duration.ofDays(7);

  private static final Pattern VAR = Pattern.compile("\\$\\{([A-Za-z_][A-Za-z0-9_]*)}");
  private static final Map<String, Set<String>> KNOWN =
      Map.ofEntries(
          Map.entry("", Set.of("server", "dataDir", "database", "auth", "bootstrap", "storage")),
          Map.entry(
              "storage", Set.of("credentialSources", "vendingCache", "vendingMinDurationSeconds")),
          Map.entry("storage.vendingCache", Set.of("ttlCapSeconds", "maxEntries")),
          Map.entry(
              "server",
              Set.of(
                  "host",
                  "port",
                  "maxRequestBytes",
                  "idempotencyKeyLifetime",
                  "tls",
                  "allowPlaintext",
                  "trustedProxies",
                  "limits")),
          Map.entry("server.limits", ServerLimits.KEYS),
          Map.entry(
              "server.tls",
              Set.of(
                  "certificate",
                  "privateKey",
                  "keyStore",
                  "keyStorePassword",
                  "clientAuth",
                  "reloadIntervalSeconds")),
          Map.entry("server.tls.clientAuth", Set.of("caFile")),
          Map.entry(
              "database",
              Set.of(
                  "url",
                  "user",
                  "password",
                  "maxPoolSize",
                  "connectionTimeoutMs",
                  "startupTimeoutMs",
                  "pointerCache",
                  "pointerCacheMaxEntries")),
          Map.entry(
              "auth",
              Set.of(
                  "tokenLifetimeSeconds", "oidc", "tokenThrottle", "verifiedSecretCacheSeconds")),
          Map.entry(
              "auth.tokenThrottle",
              Set.of(
                  "enabled",
                  "clientBurst",
                  "clientFailuresPerMinute",
                  "addressBurst",
                  "addressFailuresPerMinute",
                  "maxTrackedKeys")),
          Map.entry(
              "auth.oidc",
              Set.of(
                  "issuer", "audience", "jwksUrl", "principalClaim", "rolesClaim", "roleMappings")),
          Map.entry("bootstrap", Set.of("quickstartCatalog")));

  public ServerConfig {
    if (host == null || host.isBlank()) {
      throw new ConfigException("server.host must not be empty");
    }
    if (port < 0 || port > 65535) {
      throw new ConfigException("server.port must be between 0 and 65535, got " + port);
    }
    if (maxRequestBytes < 1024) {
      throw new ConfigException(
          "server.maxRequestBytes must be at least 1024, got " + maxRequestBytes);
    }
    credentialSources = Map.copyOf(credentialSources);
    if (vendingCacheTtlCap.toSeconds() < 1 || vendingCacheTtlCap.toSeconds() > 43_200) {
      throw new ConfigException(
          "storage.vendingCache.ttlCapSeconds must be between 1 and 43200, got "
              + vendingCacheTtlCap.toSeconds());
    }
    if (vendingMinDurationSeconds < 1 || vendingMinDurationSeconds > 900) {
      throw new ConfigException(
          "storage.vendingMinDurationSeconds must be between 1 and 900, got "
              + vendingMinDurationSeconds);
    }
    if (vendingCacheMaxEntries < 1) {
      throw new ConfigException(
          "storage.vendingCache.maxEntries must be at least 1, got " + vendingCacheMaxEntries);
    }
    if (tokenLifetime.toSeconds() < 60 || tokenLifetime.toSeconds() > 86_400) {
      throw new ConfigException(
          "auth.tokenLifetimeSeconds must be between 60 and 86400, got "
              + tokenLifetime.toSeconds());
    }
    Objects.requireNonNull(tokenThrottle, "tokenThrottle");
    if (verifiedSecretTtl.isNegative()
        || verifiedSecretTtl.compareTo(VerifiedSecrets.MAX_TTL) > 0) {
      throw new ConfigException(
          "auth.verifiedSecretCacheSeconds must be between 0 and "
              + VerifiedSecrets.MAX_TTL.toSeconds()
              + ", got "
              + verifiedSecretTtl.toSeconds());
    }
    Objects.requireNonNull(idempotencyKeyLifetime, "idempotencyKeyLifetime");
    if (idempotencyKeyLifetime.compareTo(MIN_IDEMPOTENCY_KEY_LIFETIME) < 0
        || idempotencyKeyLifetime.compareTo(MAX_IDEMPOTENCY_KEY_LIFETIME) > 0) {
      throw new ConfigException(
          "server.idempotencyKeyLifetime must be between PT1M and P7D, got "
              + idempotencyKeyLifetime);
    }
    Objects.requireNonNull(trustedProxies, "trustedProxies");
    Objects.requireNonNull(limits, "limits");
    TransportSection.requireSafeBind(host, tls, allowPlaintext);
  }

  /**
   * Loads a config file (or the defaults when {@code file} is null), applying command-line
   * overrides.
   */
  public static ServerConfig load(
      Path file, Overrides overrides, Function<String, String> env, StorageBackends backends) {
    ObjectNode root;
    if (file == null) {
      root = new ObjectMapper().createObjectNode();
    } else {
      try {
        JsonNode parsed = new ObjectMapper(new YAMLFactory()).readTree(Files.readString(file));
        if (parsed == null || parsed.isMissingNode() || parsed.isNull()) {
          root = new ObjectMapper().createObjectNode();
        } else if (parsed instanceof ObjectNode object) {
          root = object;
        } else {
          throw new ConfigException(
              "Config file " + file + " must hold a mapping at the top level");
        }
      } catch (IOException e) {
        throw new ConfigException("Cannot read config file " + file + ": " + e.getMessage());
      }
    }
    expand(root, "", env);
    checkKeys(root, "");
    JsonNode server = section(root, "server");
    JsonNode database = section(root, "database");
    JsonNode auth = section(root, "auth");
    JsonNode bootstrap = section(root, "bootstrap");

    Path dataDir =
        Path.of(
                overrides.dataDir() != null
                    ? overrides.dataDir()
                    : string(root, "dataDir", "dataDir", "./sluice-data"))
            .toAbsolutePath()
            .normalize();
    String host =
        overrides.host() != null
            ? overrides.host()
            : string(server, "host", "server.host", "127.0.0.1");
    int port =
        overrides.port() != null ? overrides.port() : integer(server, "port", "server.port", 8181);
    // H2's page cache is sized to the heap (DatabaseConfig.jdbcUrl).
    String defaultUrl = "jdbc:h2:file:" + dataDir.resolve("catalog") + ";DB_CLOSE_ON_EXIT=FALSE";
    DatabaseConfig db;
    try {
      db =
          new DatabaseConfig(
              string(database, "url", "database.url", defaultUrl),
              string(database, "user", "database.user", null),
              string(database, "password", "database.password", null),
              integer(database, "maxPoolSize", "database.maxPoolSize", 10),
              // Short, so requests fail fast with 503 while the database is down.
              integer(database, "connectionTimeoutMs", "database.connectionTimeoutMs", 2000),
              // Long: start-up waits for its own store (an H2 file on a busy machine).
              integer(
                  database,
                  "startupTimeoutMs",
                  "database.startupTimeoutMs",
                  (int) DatabaseConfig.DEFAULT_STARTUP_TIMEOUT_MS),
              // Table pointers served from memory, kept coherent by PostgreSQL's LISTEN/NOTIFY.
              bool(database, "pointerCache", "database.pointerCache", true),
              integer(
                  database,
                  "pointerCacheMaxEntries",
                  "database.pointerCacheMaxEntries",
                  (int) DatabaseConfig.DEFAULT_POINTER_CACHE_ENTRIES));
    } catch (IllegalArgumentException e) {
      throw new ConfigException(e.getMessage());
    }
    return new ServerConfig(
        host,
        port,
        integer(server, "maxRequestBytes", "server.maxRequestBytes", 8 * 1024 * 1024),
        dataDir,
        db,
        Duration.ofSeconds(
            integer(auth, "tokenLifetimeSeconds", "auth.tokenLifetimeSeconds", 3600)),
        oidc(auth.get("oidc")),
        bool(bootstrap, "quickstartCatalog", "bootstrap.quickstartCatalog", true),
        credentialSources(section(section(root, "storage"), "credentialSources"), backends),
        Duration.ofSeconds(
            integer(
                section(section(root, "storage"), "vendingCache"),
                "ttlCapSeconds",
                "storage.vendingCache.ttlCapSeconds",
                1800)),
        integer(
            section(section(root, "storage"), "vendingCache"),
            "maxEntries",
            "storage.vendingCache.maxEntries",
            10_000),
        integer(
            section(root, "storage"),
            "vendingMinDurationSeconds",
            "storage.vendingMinDurationSeconds",
            900),
        tokenThrottle(section(auth, "tokenThrottle")),
        Duration.ofSeconds(
            integer(
                auth,
                "verifiedSecretCacheSeconds",
                "auth.verifiedSecretCacheSeconds",
                (int) VerifiedSecrets.DEFAULT_TTL.toSeconds())),
        duration(
            server,
            "idempotencyKeyLifetime",
            "server.idempotencyKeyLifetime",
            DEFAULT_IDEMPOTENCY_KEY_LIFETIME),
        TransportSection.tls(server.get("tls")),
        bool(server, "allowPlaintext", "server.allowPlaintext", false),
        TransportSection.trustedProxies(server.get("trustedProxies")),
        ServerLimits.parse(
            server.get("limits"),
            integer(server, "maxRequestBytes", "server.maxRequestBytes", 8 * 1024 * 1024)));
  }

  /** An ISO-8601 duration such as {@code PT30M}. */
  private static Duration duration(JsonNode node, String field, String key, Duration fallback) {
    String text = string(node, field, key, null);
    if (text == null) {
      return fallback;
    }
    try {
      return Duration.parse(text.trim());
    } catch (java.time.format.DateTimeParseException e) {
      throw new ConfigException(key + " must be an ISO-8601 duration such as PT30M, got: " + text);
    }
  }

  private static TokenThrottle.Limits tokenThrottle(JsonNode node) {
    TokenThrottle.Limits d = TokenThrottle.Limits.DEFAULT;
    String key = "auth.tokenThrottle.";
    try {
      return new TokenThrottle.Limits(
          bool(node, "enabled", key + "enabled", d.enabled()),
          integer(node, "clientBurst", key + "clientBurst", d.clientBurst()),
          integer(
              node,
              "clientFailuresPerMinute",
              key + "clientFailuresPerMinute",
              d.clientPerMinute()),
          integer(node, "addressBurst", key + "addressBurst", d.addressBurst()),
          integer(
              node,
              "addressFailuresPerMinute",
              key + "addressFailuresPerMinute",
              d.addressPerMinute()),
          integer(node, "maxTrackedKeys", key + "maxTrackedKeys", (int) d.maxTrackedKeys()));
    } catch (IllegalArgumentException e) {
      throw new ConfigException(e.getMessage());
    }
  }

  /**
   * Each source is typed by its storage backend, which validates its keys; none is ever printed.
   */
  private static Map<String, CredentialSource> credentialSources(
      JsonNode node, StorageBackends backends) {
    Map<String, CredentialSource> out = new java.util.TreeMap<>();
    node.fields()
        .forEachRemaining(
            e -> {
              String key = "storage.credentialSources." + e.getKey();
              Map<String, String> fields = new java.util.LinkedHashMap<>();
              e.getValue()
                  .fieldNames()
                  .forEachRemaining(
                      field ->
                          fields.put(field, string(e.getValue(), field, key + "." + field, null)));
              try {
                out.put(e.getKey(), backends.parseSource(e.getKey(), fields));
              } catch (IllegalArgumentException ex) {
                throw new ConfigException(ex.getMessage());
              }
            });
    return out;
  }

  /** {@code auth.oidc.roleMappings}: claim value to principal role name, both strings. */
  private static Map<String, String> roleMappings(JsonNode node) {
    if (node == null || node.isNull()) {
      return Map.of();
    }
    if (!node.isObject()) {
      throw new ConfigException("auth.oidc.roleMappings must be a mapping of claim value to role");
    }
    Map<String, String> mappings = new java.util.LinkedHashMap<>();
    node.fields()
        .forEachRemaining(
            e -> {
              if (!e.getValue().isTextual()) {
                throw new ConfigException(
                    "auth.oidc.roleMappings." + e.getKey() + " must name a principal role");
              }
              mappings.put(e.getKey(), e.getValue().asText());
            });
    return mappings;
  }

  private static ExternalJwtVerifier.Settings oidc(JsonNode node) {
    if (node == null || node.isNull()) {
      return null;
    }
    try {
      return new ExternalJwtVerifier.Settings(
          string(node, "issuer", "auth.oidc.issuer", null),
          string(node, "audience", "auth.oidc.audience", null),
          string(node, "jwksUrl", "auth.oidc.jwksUrl", null),
          string(node, "principalClaim", "auth.oidc.principalClaim", null),
          string(node, "rolesClaim", "auth.oidc.rolesClaim", null),
          roleMappings(node.get("roleMappings")));
    } catch (IllegalArgumentException e) {
      throw new ConfigException(e.getMessage());
    }
  }

  /** Values given on the command line; null means "not given". */
  public record Overrides(String host, Integer port, String dataDir) {
    public static final Overrides NONE = new Overrides(null, null, null);
  }

  public Path warehouseDir() {
    return dataDir.resolve("warehouse");
  }

  private static void expand(ObjectNode node, String path, Function<String, String> env) {
    Iterator<Map.Entry<String, JsonNode>> fields = node.fields();
    while (fields.hasNext()) {
      Map.Entry<String, JsonNode> field = fields.next();
      String key = path.isEmpty() ? field.getKey() : path + "." + field.getKey();
      JsonNode value = field.getValue();
      if (value instanceof ObjectNode child) {
        expand(child, key, env);
      } else if (value.isTextual()) {
        Matcher m = VAR.matcher(value.asText());
        StringBuilder out = new StringBuilder();
        while (m.find()) {
          String resolved = env.apply(m.group(1));
          if (resolved == null) {
            throw new ConfigException(
                key + " refers to ${" + m.group(1) + "}, which is not set in the environment");
          }
          m.appendReplacement(out, Matcher.quoteReplacement(resolved));
        }
        m.appendTail(out);
        field.setValue(TextNode.valueOf(out.toString()));
      }
    }
  }

  private static void checkKeys(JsonNode node, String path) {
    if (path.equals("storage.credentialSources")) {
      // A map of source names, each a mapping whose keys its backend's source type checks.
      node.fieldNames()
          .forEachRemaining(
              name -> {
                if (!node.get(name).isObject()) {
                  throw new ConfigException(path + "." + name + " must be a mapping");
                }
              });
      return;
    }
    Set<String> allowed = KNOWN.get(path);
    node.fieldNames()
        .forEachRemaining(
            name -> {
              String key = path.isEmpty() ? name : path + "." + name;
              if (allowed == null || !allowed.contains(name)) {
                throw new ConfigException("Unknown config key: " + key);
              }
              JsonNode child = node.get(name);
              if (KNOWN.containsKey(key) || key.equals("storage.credentialSources")) {
                if (!child.isObject()) {
                  throw new ConfigException(key + " must be a mapping");
                }
                checkKeys(child, key);
              }
            });
  }

  private static JsonNode section(JsonNode root, String name) {
    JsonNode node = root.get(name);
    return node == null ? new ObjectMapper().createObjectNode() : node;
  }

  private static String string(JsonNode node, String field, String key, String fallback) {
    JsonNode value = node.get(field);
    if (value == null || value.isNull()) {
      return fallback;
    }
    if (!value.isValueNode()) {
      throw new ConfigException(key + " must be a string");
    }
    return value.asText();
  }

  private static int integer(JsonNode node, String field, String key, int fallback) {
    JsonNode value = node.get(field);
    if (value == null || value.isNull()) {
      return fallback;
    }
    if (value.isIntegralNumber()) {
      return value.asInt();
    }
    try {
      return Integer.parseInt(value.asText().trim());
    } catch (NumberFormatException e) {
      throw new ConfigException(key + " must be an integer, got: " + value.asText());
    }
  }

  private static boolean bool(JsonNode node, String field, String key, boolean fallback) {
    JsonNode value = node.get(field);
    if (value == null || value.isNull()) {
      return fallback;
    }
    String text = value.asText().trim();
    if (text.equals("true") || text.equals("false")) {
      return Boolean.parseBoolean(text);
    }
    throw new ConfigException(key + " must be true or false, got: " + text);
  }
}
