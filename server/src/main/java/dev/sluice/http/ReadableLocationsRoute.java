package dev.sluice.http;

import static java.util.Objects.requireNonNull;

import dev.sluice.api.ReadableTableLocations;
import dev.sluice.catalog.SluiceCatalog;
import dev.sluice.location.StorageLocation;
import dev.sluice.operations.ReadableLocations;
import dev.sluice.store.ClaimedContent;
import dev.sluice.store.Page;
import dev.sluice.store.PageRequest;
import java.util.regex.Pattern;
import org.apache.iceberg.exceptions.BadRequestException;

/**
 * {@code GET /v1/{prefix}/readable-table-locations?bucket=B}, a Sluice extension (not in the
 * Iceberg spec, not advertised by {@code /v1/config}): the locations in bucket B of the tables the
 * caller may read, as {@link ReadableLocations} finds them, for engine-side bridges (DataFusion
 * Comet's {@code getPolicyLocations}).
 *
 * <p>Paged by table identifier like every list; a page is filtered by authorization after it is
 * read, so it may hold fewer than {@code pageSize} tables (even none) while {@code next-page-token}
 * still leads on: a client follows the token until it is absent.
 */
final class ReadableLocationsRoute {
  static final String PATH = "/v1/{prefix}/readable-table-locations";

  /**
   * What a bucket name may be: S3's and R2's characters (and legacy upper case and underscores).
   */
  private static final Pattern BUCKET = Pattern.compile("[A-Za-z0-9._-]{1,255}");

  private final IcebergRequests requests;
  private final ReadableLocations readable;
  private final Paging paging;

  ReadableLocationsRoute(IcebergRequests requests, ReadableLocations readable, Paging paging) {
    this.requests = requireNonNull(requests, "requests");
    this.readable = requireNonNull(readable, "readable");
    this.paging = requireNonNull(paging, "paging");
  }

  Reply handle(Exchange x) {
    // Input first: a 400 says nothing about the catalog, so it is no existence oracle either.
    String bucket = bucket(x.query("bucket"));
    PageRequest page = paging.byKeys(x, 2);
    // As every catalog route: who may not know of the catalog is refused before the lookup.
    SluiceCatalog catalog = requests.catalog(x);
    Page<ClaimedContent> tables = readable.inBucket(requests.caller(x), catalog, bucket, page);
    return Reply.okPlain(
        new ReadableTableLocations(
            tables.items().stream().map(ReadableLocationsRoute::entry).toList(),
            paging.nextToken(x, tables)));
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

  private static ReadableTableLocations.TableLocations entry(ClaimedContent table) {
    return new ReadableTableLocations.TableLocations(
        table.namespace().levels(),
        table.name(),
        table.locationKeys().stream()
            .map(key -> StorageLocation.parse(key).toString())
            .sorted() // in Java's order, whatever the database's collation
            .toList());
  }
}
