package dev.sluice.operations;

import static java.util.Objects.requireNonNull;

import com.github.benmanes.caffeine.cache.Cache;
import com.github.benmanes.caffeine.cache.Caffeine;
import dev.sluice.auth.TokenService;
import dev.sluice.authz.Authorizer;
import dev.sluice.authz.Caller;
import dev.sluice.authz.Privilege;
import dev.sluice.catalog.SluiceCatalog;
import dev.sluice.store.SecurableRef;
import dev.sluice.vending.AccessMode;
import dev.sluice.vending.Delegation;
import dev.sluice.vending.RequestSigner;
import dev.sluice.vending.RequestTarget;
import dev.sluice.vending.SignedRequest;
import dev.sluice.vending.StorageProfile;
import dev.sluice.vending.StorageRequest;
import dev.sluice.vending.VendingService;
import java.time.Duration;
import java.util.List;
import org.apache.iceberg.catalog.TableIdentifier;
import org.apache.iceberg.exceptions.BadRequestException;
import org.apache.iceberg.exceptions.ForbiddenException;

/**
 * Remote signing of one storage request for one table (the spec's signRequest), once its body is
 * parsed. In order:
 *
 * <ol>
 *   <li>whether the catalog offers remote signing (400);
 *   <li>what the request would touch, parsed by the catalog's backend ({@link
 *       RequestSigner#target}), a 400 for anything it never signs;
 *   <li>the privilege the access needs on the table (GET, HEAD, a listing: TABLE_READ_DATA; PUT,
 *       POST, DELETE: TABLE_WRITE_DATA), a 403, audited like every decision;
 *   <li>that every path lies inside the table's own locations, segment by segment (a 403, audited);
 *       a staged table's are those its {@link StagedTableGrant} for signing names;
 *   <li>the signature, by the backend's signer with a credential the store confines to the table's
 *       locations and the caller's access mode ({@link VendingService#sign}), dated so the store
 *       refuses it once its short lifetime is over.
 * </ol>
 *
 * The table's locations are cached here for one second, the same bound as the authorization cache,
 * so a revoked grant refuses the next request.
 */
public final class TableSigning {
  public static final String ACTION = "signRequest";

  /**
   * A request to sign for {@code call}'s table; {@code stagedGrant} for a staged one, else null.
   */
  public record SignTableRequest(
      TableCall call, String stagedGrant, String planId, StorageRequest request) {
    public SignTableRequest {
      requireNonNull(call, "call");
      requireNonNull(request, "request");
    }

    public SignTableRequest(TableCall call, String stagedGrant, StorageRequest request) {
      this(call, stagedGrant, null, request);
    }
  }

  private record TableKey(String catalog, TableIdentifier table) {}

  private final Authorizer authz;
  private final VendingService vending;
  private final TokenService tokens;
  private final ScanPlans plans;
  private final ReadRestrictions restrictions;
  private final Cache<TableKey, List<String>> locations =
      Caffeine.newBuilder().expireAfterWrite(Duration.ofSeconds(1)).maximumSize(10_000).build();

  public TableSigning(
      Authorizer authz,
      VendingService vending,
      TokenService tokens,
      ScanPlans plans,
      ReadRestrictions restrictions) {
    this.authz = requireNonNull(authz, "authz");
    this.vending = requireNonNull(vending, "vending");
    this.tokens = requireNonNull(tokens, "tokens");
    this.plans = requireNonNull(plans, "plans");
    this.restrictions = requireNonNull(restrictions, "restrictions");
  }

  public SignedRequest sign(SignTableRequest sign) {
    TableCall call = sign.call();
    Caller caller = call.caller();
    SluiceCatalog catalog = call.catalog();
    TableIdentifier table = call.table();
    // Signed with the namespace's storage identity when it (or an ancestor) has one.
    StorageProfile profile = catalog.storageFor(table.namespace());
    if (!profile.offered().contains(Delegation.Kind.REMOTE_SIGNING)) {
      throw new BadRequestException(
          "Catalog %s does not offer remote signing (storageConfigInfo.delegation)",
          catalog.name());
    }

    SecurableRef ref = Securables.tableRef(table);
    RequestSigner signer = vending.signer(profile);
    RequestTarget target;
    try {
      target = signer.target(sign.request());
    } catch (IllegalArgumentException e) {
      // A request the signer never signs is a decision too: audited as a refusal.
      authz.record(caller, ACTION, catalog.name(), ref.toString(), false, e.getMessage());
      throw new BadRequestException("Cannot sign this request: %s", e.getMessage());
    }
    Privilege needed =
        target.needed() == AccessMode.READ_WRITE
            ? Privilege.TABLE_WRITE_DATA
            : Privilege.TABLE_READ_DATA;
    authz.require(caller, ACTION, catalog.name(), ref, needed);

    List<String> owned;
    if (sign.stagedGrant() == null) {
      owned =
          locations.get(new TableKey(catalog.name(), table), k -> catalog.tableLocationKeys(table));
    } else {
      StagedTableGrant staged =
          StagedTableGrant.verify(
              tokens,
              sign.stagedGrant(),
              StagedTableGrant.Purpose.SIGN,
              caller.principal(),
              catalog.name(),
              table);
      owned =
          catalog.stagedLocationKeys(
              table, SluiceCatalog.locationKeysOf(staged.location(), staged.locationProperties()));
    }
    if (sign.planId() == null && restrictions.of(caller, catalog.name(), table).isPresent()) {
      String why = "under a read restriction: only a scan plan's files are signed";
      authz.record(caller, ACTION, catalog.name(), ref.toString(), false, why);
      throw new ForbiddenException(
          "Cannot sign for table %s: principal '%s' is %s", table, caller.principal(), why);
    }
    if (sign.planId() != null && !target.readsOnly(plans.filesOf(call, sign.planId()))) {
      authz.record(
          caller,
          ACTION,
          catalog.name(),
          ref.toString(),
          false,
          "outside scan plan " + sign.planId() + ": " + target.operation() + " " + target.paths());
      throw new ForbiddenException(
          "Cannot sign %s of %s: not a read of a file of scan plan %s",
          target.operation(), target.paths(), sign.planId());
    }
    if (!target.within(owned)) {
      authz.record(
          caller,
          ACTION,
          catalog.name(),
          ref.toString(),
          false,
          "outside the table's locations: " + target.operation() + " " + target.paths());
      throw new ForbiddenException(
          "Cannot sign %s of %s: outside the locations of table %s",
          target.operation(), target.paths(), table);
    }

    try {
      return vending.sign(
          profile,
          catalog.settings().locationPolicy(),
          owned.stream().map(TableSigning::location).toList(),
          target.needed(),
          call.attribution(),
          sign.request());
    } catch (IllegalArgumentException e) {
      authz.record(caller, ACTION, catalog.name(), ref.toString(), false, e.getMessage());
      throw new ForbiddenException("Cannot sign for table %s: %s", table, e.getMessage());
    }
  }

  /** A claimed location key ({@code s3://b/wh/t/}) as the location it names. */
  private static String location(String key) {
    return key.endsWith("/") ? key.substring(0, key.length() - 1) : key;
  }
}
