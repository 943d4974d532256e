package dev.sluice.operations;

import static java.util.Objects.requireNonNull;

import dev.sluice.authz.Authorizer;
import dev.sluice.authz.Caller;
import dev.sluice.authz.Privilege;
import dev.sluice.catalog.SluiceCatalog;
import dev.sluice.location.StorageLocation;
import dev.sluice.store.ClaimedContent;
import dev.sluice.store.ContentKind;
import dev.sluice.store.Page;
import dev.sluice.store.PageRequest;
import dev.sluice.store.Store;
import java.util.List;
import org.apache.iceberg.catalog.Namespace;
import org.apache.iceberg.catalog.TableIdentifier;

/**
 * The locations in one bucket of the tables a caller may read (TABLE_READ_DATA, held or implied),
 * for engine-side bridges that must answer "where may this principal read in this bucket"
 * (DataFusion Comet's {@code getPolicyLocations}).
 *
 * <p>The locations are the tables' claims in the store (a table's {@code location} and each {@code
 * write.*.path}), never read from metadata files. A bucket is a storage root's authority: its root
 * keys are those of the catalog's allowedLocations with that authority, since every claim lies
 * under one of them ({@code s3://B/} and {@code s3a://B/} for an S3 catalog; none for FILE). A page
 * is filtered by authorization after it is read, so it may hold fewer tables than asked for.
 */
public final class ReadableLocations {
  public static final String ACTION = "listReadableTableLocations";

  private final Authorizer authz;
  private final Store store;

  public ReadableLocations(Authorizer authz, Store store) {
    this.authz = requireNonNull(authz, "authz");
    this.store = requireNonNull(store, "store");
  }

  /** The readable tables claiming locations in {@code bucket}, by table identifier. */
  public Page<ClaimedContent> inBucket(
      Caller caller, SluiceCatalog catalog, String bucket, PageRequest page) {
    authz.record(caller, ACTION, catalog.name(), "bucket " + bucket, true);
    List<String> roots = roots(catalog, bucket);
    return Page.visible(
        page,
        r -> store.contentsClaimingUnder(catalog.name(), ContentKind.TABLE, roots, r),
        table ->
            authz
                .effective(caller, catalog.name(), Securables.tableRef(id(table)))
                .contains(Privilege.TABLE_READ_DATA),
        table -> PageRequest.tokenFor(List.of(table.namespace().key(), table.name())));
  }

  private static TableIdentifier id(ClaimedContent table) {
    return TableIdentifier.of(
        Namespace.of(table.namespace().levels().toArray(String[]::new)), table.name());
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
}
