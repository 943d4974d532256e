package dev.sluice.http;

import static java.util.Objects.requireNonNull;

import dev.sluice.authz.Authorizer;
import dev.sluice.authz.Caller;
import dev.sluice.authz.CatalogVisibility;
import dev.sluice.authz.Privilege;
import dev.sluice.catalog.CatalogRegistry;
import dev.sluice.catalog.SluiceCatalog;
import dev.sluice.location.StorageLocation;
import dev.sluice.operations.Securables;
import dev.sluice.store.ClaimedContent;
import dev.sluice.store.ContentKind;
import dev.sluice.store.Page;
import dev.sluice.store.PageRequest;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Pattern;
import org.apache.iceberg.catalog.Namespace;
import org.apache.iceberg.catalog.TableIdentifier;
import org.apache.iceberg.exceptions.BadRequestException;

/**
 * {@code GET /v1/{prefix}/readable-table-locations?bucket=B}, a Sluice extension (not in the
 * Iceberg spec, not advertised by {@code /v1/config}): the locations in bucket B of the tables the
 * caller may read (TABLE_READ_DATA, held or implied), for engine-side bridges that must answer
 * "where may this principal read in this bucket" (DataFusion Comet's {@code getPolicyLocations}).
 *
 * <p>The locations are the table's claims in the store (its {@code location} and each {@code
 * write.*.path}), never read from metadata files. A bucket is a storage root's authority: its root
 * keys are those of the catalog's allowedLocations with that authority, since every claim lies
 * under one of them ({@code s3://B/} and {@code s3a://B/} for an S3 catalog; none for FILE).
 *
 * <p>Paged by table identifier like every list; a page is filtered by authorization after it is
 * read, so it may hold fewer than {@code pageSize} tables (even none) while {@code next-page-token}
 * still leads on: a client follows the token until it is absent.
 */
final class ReadableLocationsRoute {
  static final String PATH = "/v1/{prefix}/readable-table-locations";
  static final String ACTION = "listReadableTableLocations";

  /**
   * What a bucket name may be: S3's and R2's characters (and legacy upper case and underscores).
   */
  private static final Pattern BUCKET = Pattern.compile("[A-Za-z0-9._-]{1,255}");

  private final CatalogRegistry catalogs;
  private final Authorizer authz;
  private final CatalogVisibility visibility;
  private final Paging paging;

  ReadableLocationsRoute(
      CatalogRegistry catalogs, Authorizer authz, CatalogVisibility visibility, Paging paging) {
    this.catalogs = requireNonNull(catalogs, "catalogs");
    this.authz = requireNonNull(authz, "authz");
    this.visibility = requireNonNull(visibility, "visibility");
    this.paging = requireNonNull(paging, "paging");
  }

  Reply handle(Exchange x) {
    // Input first: a 400 says nothing about the catalog, so it is no existence oracle either.
    String bucket = bucket(x.query("bucket"));
    PageRequest page = paging.byKeys(x, 2);
    Caller caller = x.caller(authz);
    String name = x.path("prefix");
    visibility.require(caller, "accessCatalog", name); // as every catalog route, before the lookup
    SluiceCatalog catalog = catalogs.resolve(name);
    authz.record(caller, ACTION, catalog.name(), "bucket " + bucket, true);

    List<String> roots = roots(catalog, bucket);
    Page<ClaimedContent> readable =
        Page.visible(
            page,
            r ->
                catalogs.store().contentsClaimingUnder(catalog.name(), ContentKind.TABLE, roots, r),
            table ->
                authz
                    .effective(caller, catalog.name(), Securables.tableRef(id(table)))
                    .contains(Privilege.TABLE_READ_DATA),
            table -> PageRequest.tokenFor(List.of(table.namespace().key(), table.name())));
    Map<String, Object> body = new LinkedHashMap<>();
    body.put("locations", readable.items().stream().map(ReadableLocationsRoute::entry).toList());
    String token = paging.nextToken(x, readable);
    if (token != null) {
      body.put("next-page-token", token);
    }
    return Reply.okPlain(body);
  }

  private static TableIdentifier id(ClaimedContent table) {
    return TableIdentifier.of(
        Namespace.of(table.namespace().levels().toArray(String[]::new)), table.name());
  }

  private static String bucket(String bucket) {
    if (bucket == null || bucket.isEmpty()) {
      throw new BadRequestException("Missing query parameter: bucket");
    }
    if (!BUCKET.matcher(bucket).matches()) {
      throw new BadRequestException(
          "Invalid bucket: %s (1 to 255 letters, digits, '.', '-' or '_')",
          (bucket.length() <= 64 ? bucket : bucket.substring(0, 64) + "…")
              .replaceAll("\\p{Cntrl}", "?"));
    }
    return bucket;
  }

  /** The root keys of the catalog's allowed locations in {@code bucket}. */
  private static List<String> roots(SluiceCatalog catalog, String bucket) {
    return catalog.settings().locationPolicy().allowed().stream()
        .filter(allowed -> allowed.authority().equals(bucket))
        .map(StorageLocation::rootKey)
        .distinct()
        .sorted()
        .toList();
  }

  private static Map<String, Object> entry(ClaimedContent table) {
    Map<String, Object> entry = new LinkedHashMap<>();
    entry.put("namespace", table.namespace().levels());
    entry.put("table", table.name());
    entry.put(
        "locations",
        table.locationKeys().stream()
            .map(key -> StorageLocation.parse(key).toString())
            .sorted() // in Java's order, whatever the database's collation
            .toList());
    return entry;
  }
}
