package dev.sluice.testing;

import java.util.ArrayList;
import java.util.List;

/**
 * One valid request per route (some routes have several), the fuzzer's starting points. Paths and
 * bodies name their targets with placeholders the fuzzer fills per request: {@code {c}} catalog,
 * {@code {ns}} namespace, {@code {t}} table, {@code {v}} view, {@code {p}} principal, {@code {pr}}
 * principal role, {@code {cr}} catalog role, {@code {new}} a fresh name, {@code {loc}} a location
 * the catalog allows, {@code {wh}} the scratch warehouse, {@code {meta}} a metadata file, {@code
 * {uuid}} / {@code {vuuid}} the table's / view's uuid, {@code {clientId}}, {@code {secret}}, {@code
 * {token}} credentials of one of the callers (or wrong ones).
 */
public final class FuzzCorpus {
  /** One route's valid request; {@code form} marks the OAuth token endpoint's form body. */
  public record Seed(String method, String path, String query, String body, boolean form) {
    public boolean writes() {
      return !method.equals("GET") && !method.equals("HEAD");
    }
  }

  public static final String TOKEN_PATH = "/api/catalog/v1/oauth/tokens";
  private static final String P = "/api/catalog/v1/{c}";
  private static final String NS = P + "/namespaces/{ns}";
  private static final String T = NS + "/tables/{t}";
  private static final String V = NS + "/views/{v}";
  private static final String M = "/api/management/v1";
  private static final String SCHEMA =
      "{\"type\":\"struct\",\"schema-id\":0,\"fields\":[{\"id\":1,\"name\":\"id\",\"required\":true,\"type\":\"long\"},"
          + "{\"id\":2,\"name\":\"data\",\"required\":false,\"type\":\"string\"}]}";
  private static final String IDENT = "{\"namespace\":[\"{ns}\"],\"name\":\"{t}\"}";
  private static final String COMMIT =
      "{\"requirements\":[{\"type\":\"assert-table-uuid\",\"uuid\":\"{uuid}\"}],"
          + "\"updates\":[{\"action\":\"set-properties\",\"updates\":{\"k\":\"v\",\"write.format.default\":\"parquet\"}},"
          + "{\"action\":\"remove-properties\",\"removals\":[\"gone\"]}]}";
  private static final String CREATE_COMMIT =
      "{\"requirements\":[{\"type\":\"assert-create\"}],\"updates\":["
          + "{\"action\":\"assign-uuid\",\"uuid\":\"6f7d3c43-1a9e-4b39-a3c5-2b2c4f0c2d11\"},"
          + "{\"action\":\"upgrade-format-version\",\"format-version\":2},"
          + "{\"action\":\"add-schema\",\"schema\":"
          + SCHEMA
          + ",\"last-column-id\":2},"
          + "{\"action\":\"set-current-schema\",\"schema-id\":-1},"
          + "{\"action\":\"add-spec\",\"spec\":{\"spec-id\":0,\"fields\":[]}},{\"action\":\"set-default-spec\",\"spec-id\":-1},"
          + "{\"action\":\"add-sort-order\",\"sort-order\":{\"order-id\":0,\"fields\":[]}},"
          + "{\"action\":\"set-default-sort-order\",\"sort-order-id\":-1},"
          + "{\"action\":\"set-location\",\"location\":\"{loc}\"},"
          + "{\"action\":\"set-properties\",\"updates\":{\"a\":\"b\"}}]}";
  private static final String SNAPSHOT_COMMIT =
      "{\"requirements\":[{\"type\":\"assert-ref-snapshot-id\",\"ref\":\"main\",\"snapshot-id\":null}],\"updates\":["
          + "{\"action\":\"add-snapshot\",\"snapshot\":{\"snapshot-id\":77,\"timestamp-ms\":1700000000000,"
          + "\"manifest-list\":\"{loc}/metadata/snap-77.avro\",\"summary\":{\"operation\":\"append\"},\"schema-id\":0}},"
          + "{\"action\":\"set-snapshot-ref\",\"ref-name\":\"main\",\"type\":\"branch\",\"snapshot-id\":77},"
          + "{\"action\":\"set-statistics\",\"statistics\":{\"snapshot-id\":77,\"statistics-path\":\"{loc}/s.puffin\","
          + "\"file-size-in-bytes\":1,\"file-footer-size-in-bytes\":1,\"blob-metadata\":[]}}]}";
  private static final String VIEW_VERSION =
      "{\"version-id\":1,\"timestamp-ms\":1700000000000,\"schema-id\":0,\"summary\":{\"engine-name\":\"spark\"},"
          + "\"representations\":[{\"type\":\"sql\",\"sql\":\"select 1\",\"dialect\":\"spark\"}],"
          + "\"default-namespace\":[\"{ns}\"]}";
  private static final String SCAN_REPORT =
      "{\"report-type\":\"scan-report\",\"table-name\":\"{ns}.{t}\",\"snapshot-id\":1,\"filter\":true,\"schema-id\":0,"
          + "\"projected-field-ids\":[1],\"projected-field-names\":[\"id\"],"
          + "\"metrics\":{\"total-planning-duration\":{\"count\":1,\"time-unit\":\"nanoseconds\",\"total-duration\":5}}}";

  private FuzzCorpus() {}

  public static List<Seed> seeds() {
    List<Seed> s = new ArrayList<>();
    // Iceberg REST
    s.add(get("/api/catalog/v1/config", "warehouse={c}"));
    s.add(get(P + "/namespaces", "pageSize=5"));
    s.add(get(P + "/namespaces", "parent={ns}"));
    s.add(
        json(
            "POST",
            P + "/namespaces",
            "{\"namespace\":[\"{new}\"],\"properties\":{\"owner\":\"fuzz\"}}"));
    s.add(json("POST", P + "/namespaces", "{\"namespace\":[\"{ns}\",\"{new}\"]}"));
    s.add(get(NS, null));
    s.add(new Seed("HEAD", NS, null, null, false));
    s.add(new Seed("DELETE", NS, null, null, false));
    s.add(json("POST", NS + "/properties", "{\"removals\":[\"gone\"],\"updates\":{\"k\":\"v\"}}"));
    s.add(get(NS + "/tables", "pageSize=3"));
    s.add(
        json(
            "POST",
            NS + "/tables",
            "{\"name\":\"{new}\",\"schema\":"
                + SCHEMA
                + ",\"partition-spec\":{\"spec-id\":0,"
                + "\"fields\":[{\"source-id\":1,\"field-id\":1000,\"name\":\"id_bucket\",\"transform\":\"bucket[4]\"}]},"
                + "\"write-order\":{\"order-id\":1,\"fields\":[{\"transform\":\"identity\",\"source-id\":1,\"direction\":\"asc\","
                + "\"null-order\":\"nulls-first\"}]},\"properties\":{\"a\":\"b\"}}"));
    s.add(
        json(
            "POST",
            NS + "/tables",
            "{\"name\":\"{new}\",\"schema\":"
                + SCHEMA
                + ",\"stage-create\":true,"
                + "\"location\":\"{loc}\"}"));
    s.add(json("POST", NS + "/register", "{\"name\":\"{new}\",\"metadata-location\":\"{meta}\"}"));
    s.add(get(T, null));
    s.add(get(T, "snapshots=refs"));
    s.add(new Seed("HEAD", T, null, null, false));
    s.add(json("POST", T, COMMIT));
    s.add(json("POST", T, CREATE_COMMIT));
    s.add(json("POST", T, SNAPSHOT_COMMIT));
    s.add(new Seed("DELETE", T, "purgeRequested=false", null, false));
    s.add(json("POST", T + "/metrics", SCAN_REPORT));
    s.add(get(T + "/credentials", null));
    s.add(
        json(
            "POST",
            P + "/tables/rename",
            "{\"source\":"
                + IDENT
                + ",\"destination\":{\"namespace\":[\"{ns}\"],\"name\":\"{new}\"}}"));
    s.add(
        json(
            "POST",
            P + "/transactions/commit",
            "{\"table-changes\":[{\"identifier\":"
                + IDENT
                + ","
                + "\"requirements\":[],\"updates\":[{\"action\":\"set-properties\",\"updates\":{\"tx\":\"1\"}}]}]}"));
    s.add(get(P + "/readable-table-locations", "bucket=b&pageSize=3"));
    s.add(get(NS + "/views", null));
    s.add(
        json(
            "POST",
            NS + "/views",
            "{\"name\":\"{new}\",\"schema\":"
                + SCHEMA
                + ",\"view-version\":"
                + VIEW_VERSION
                + ",\"properties\":{\"comment\":\"c\"}}"));
    s.add(get(V, null));
    s.add(new Seed("HEAD", V, null, null, false));
    s.add(
        json(
            "POST",
            V,
            "{\"requirements\":[{\"type\":\"assert-view-uuid\",\"uuid\":\"{vuuid}\"}],"
                + "\"updates\":[{\"action\":\"set-properties\",\"updates\":{\"a\":\"b\"}},"
                + "{\"action\":\"remove-properties\",\"removals\":[\"gone\"]}]}"));
    s.add(new Seed("DELETE", V, null, null, false));
    s.add(
        json(
            "POST",
            P + "/views/rename",
            "{\"source\":{\"namespace\":[\"{ns}\"],\"name\":\"{v}\"},\"destination\":{\"namespace\":[\"{ns}\"],\"name\":\"{new}\"}}"));
    s.add(json("POST", T + "/plan", "{\"snapshot-id\":1}"));
    s.add(get(T + "/plan/p1", null));
    s.add(new Seed("DELETE", T + "/plan/p1", null, null, false));
    s.add(json("POST", T + "/tasks", "{\"plan-task\":\"x\"}"));
    // management: catalogs
    s.add(
        json(
            "POST",
            M + "/catalogs",
            "{\"catalog\":{\"name\":\"{new}\",\"type\":\"INTERNAL\","
                + "\"properties\":{\"default-base-location\":\"{loc}\"},"
                + "\"storageConfigInfo\":{\"storageType\":\"FILE\",\"allowedLocations\":[\"{loc}\"]}}}"));
    s.add(get(M + "/catalogs", null));
    s.add(get(M + "/catalogs/{c}", null));
    s.add(
        json(
            "PUT",
            M + "/catalogs/{c}",
            "{\"properties\":{\"default-base-location\":\"{loc}\",\"k\":\"v\"}}"));
    s.add(
        json(
            "PUT",
            M + "/catalogs/{c}",
            "{\"currentEntityVersion\":2,\"storageConfigInfo\":{\"storageType\":\"FILE\","
                + "\"allowedLocations\":[\"{wh}\"]}}"));
    s.add(new Seed("DELETE", M + "/catalogs/{c}", null, null, false));
    // principals
    s.add(
        json(
            "POST",
            M + "/principals",
            "{\"principal\":{\"name\":\"{new}\",\"properties\":{\"team\":\"x\"}}}"));
    s.add(get(M + "/principals", null));
    s.add(get(M + "/principals/{p}", null));
    s.add(
        json(
            "PUT",
            M + "/principals/{p}",
            "{\"currentEntityVersion\":1,\"properties\":{\"team\":\"y\"}}"));
    s.add(new Seed("DELETE", M + "/principals/{p}", null, null, false));
    s.add(new Seed("POST", M + "/principals/{p}/rotate", null, null, false));
    s.add(get(M + "/principals/{p}/principal-roles", null));
    s.add(
        json(
            "PUT",
            M + "/principals/{p}/principal-roles",
            "{\"principalRole\":{\"name\":\"{pr}\"}}"));
    s.add(new Seed("DELETE", M + "/principals/{p}/principal-roles/{pr}", null, null, false));
    // principal roles
    s.add(
        json(
            "POST",
            M + "/principal-roles",
            "{\"principalRole\":{\"name\":\"{new}\",\"properties\":{}}}"));
    s.add(get(M + "/principal-roles", null));
    s.add(get(M + "/principal-roles/{pr}", null));
    s.add(new Seed("DELETE", M + "/principal-roles/{pr}", null, null, false));
    s.add(get(M + "/principal-roles/{pr}/principals", null));
    s.add(get(M + "/principal-roles/{pr}/catalog-roles/{c}", null));
    s.add(
        json(
            "PUT",
            M + "/principal-roles/{pr}/catalog-roles/{c}",
            "{\"catalogRole\":{\"name\":\"{cr}\"}}"));
    s.add(
        new Seed("DELETE", M + "/principal-roles/{pr}/catalog-roles/{c}/{cr}", null, null, false));
    // catalog roles and grants
    String cr = M + "/catalogs/{c}/catalog-roles";
    s.add(json("POST", cr, "{\"catalogRole\":{\"name\":\"{new}\",\"properties\":{\"k\":\"v\"}}}"));
    s.add(get(cr, null));
    s.add(get(cr + "/{cr}", null));
    s.add(new Seed("DELETE", cr + "/{cr}", null, null, false));
    s.add(get(cr + "/{cr}/principal-roles", null));
    s.add(get(cr + "/{cr}/grants", null));
    s.add(
        json(
            "PUT",
            cr + "/{cr}/grants",
            "{\"grant\":{\"type\":\"table\",\"namespace\":[\"{ns}\"],\"tableName\":\"{t}\",\"privilege\":\"TABLE_READ_DATA\"}}"));
    s.add(
        json(
            "PUT",
            cr + "/{cr}/grants",
            "{\"grant\":{\"type\":\"catalog\",\"privilege\":\"CATALOG_MANAGE_CONTENT\"}}"));
    s.add(
        json(
            "PUT",
            cr + "/{cr}/grants",
            "{\"grant\":{\"type\":\"view\",\"namespace\":[\"{ns}\"],\"viewName\":\"{v}\",\"privilege\":\"VIEW_READ_PROPERTIES\"}}"));
    s.add(
        json(
            "POST",
            cr + "/{cr}/grants",
            "{\"grant\":{\"type\":\"namespace\",\"namespace\":[\"{ns}\"],\"privilege\":\"NAMESPACE_LIST\"}}"));
    // events, signing keys
    s.add(get(M + "/events", "principal={p}&decision=DENY&from=0"));
    s.add(get(M + "/events", "catalog={c}&securable=catalog"));
    s.add(new Seed("POST", M + "/signing-keys/rotate", null, null, false));
    // OAuth tokens
    s.add(
        new Seed(
            "POST",
            TOKEN_PATH,
            null,
            "grant_type=client_credentials&client_id={clientId}&client_secret={secret}&scope=PRINCIPAL_ROLE%3AALL",
            true));
    s.add(
        new Seed(
            "POST",
            TOKEN_PATH,
            null,
            "grant_type=urn%3Aietf%3Aparams%3Aoauth%3Agrant-type%3Atoken-exchange&subject_token={token}"
                + "&subject_token_type=urn%3Aietf%3Aparams%3Aoauth%3Atoken-type%3Aaccess_token&scope=catalog",
            true));
    // health
    s.add(get("/healthz", null));
    s.add(get("/readyz", null));
    s.add(get("/metrics", null));
    return List.copyOf(s);
  }

  private static Seed get(String path, String query) {
    return new Seed("GET", path, query, null, false);
  }

  private static Seed json(String method, String path, String body) {
    return new Seed(method, path, null, body, false);
  }
}
