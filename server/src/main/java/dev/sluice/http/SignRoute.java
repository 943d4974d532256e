package dev.sluice.http;

import static java.util.Objects.requireNonNull;

import com.github.benmanes.caffeine.cache.Cache;
import com.github.benmanes.caffeine.cache.Caffeine;
import dev.sluice.auth.TokenService;
import dev.sluice.authz.Authorizer;
import dev.sluice.authz.Caller;
import dev.sluice.authz.CatalogVisibility;
import dev.sluice.authz.Privilege;
import dev.sluice.catalog.CatalogRegistry;
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
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.SortedMap;
import java.util.TreeMap;
import org.apache.iceberg.catalog.TableIdentifier;
import org.apache.iceberg.exceptions.BadRequestException;
import org.apache.iceberg.exceptions.ForbiddenException;

/**
 * {@code POST /v1/{prefix}/namespaces/{namespace}/tables/{table}/sign}, the spec's signRequest:
 * remote signing of one storage request for one table. In order:
 *
 * <ol>
 *   <li>the body's shape (one JSON object, each field once: region, uri, method, headers; body and
 *       properties optional), a 400;
 *   <li>the catalog (the usual 403 without standing) and whether it offers remote signing (400);
 *   <li>what the request would touch, parsed by the catalog's backend ({@link
 *       dev.sluice.vending.RequestSigner#target}), a 400 for anything it never signs;
 *   <li>the privilege the access needs on the table (GET, HEAD, a listing: TABLE_READ_DATA; PUT,
 *       POST, DELETE: TABLE_WRITE_DATA), a 403, audited like every decision;
 *   <li>that every path lies inside the table's own locations, segment by segment (a 403, audited);
 *   <li>the signature, by the backend's signer with a credential the store confines to the table's
 *       locations and the caller's access mode ({@link VendingService#sign}), dated so the store
 *       refuses it once its short lifetime is over.
 * </ol>
 *
 * No signature may be cached by the client ({@code Cache-Control: no-store}). The table's locations
 * are cached here for one second, the same bound as the authorization cache, so a revoked grant
 * refuses the next request.
 */
final class SignRoute {
  static final String PATH = "/v1/{prefix}/namespaces/{namespace}/tables/{table}/sign";

  /** A staged table's signing endpoint: {@link StagedSigningGrant} in the last segment. */
  static final String STAGED_PATH = PATH + "/{grant}";

  static final String ACTION = "signRequest";

  private record TableKey(String catalog, TableIdentifier table) {}

  private final CatalogRegistry catalogs;
  private final Authorizer authz;
  private final CatalogVisibility visibility;
  private final VendingService vending;
  private final TokenService tokens;
  private final Cache<TableKey, List<String>> locations =
      Caffeine.newBuilder().expireAfterWrite(Duration.ofSeconds(1)).maximumSize(10_000).build();

  SignRoute(
      CatalogRegistry catalogs,
      Authorizer authz,
      CatalogVisibility visibility,
      VendingService vending,
      TokenService tokens) {
    this.catalogs = requireNonNull(catalogs, "catalogs");
    this.authz = requireNonNull(authz, "authz");
    this.visibility = requireNonNull(visibility, "visibility");
    this.vending = requireNonNull(vending, "vending");
    this.tokens = requireNonNull(tokens, "tokens");
  }

  Reply handle(Exchange x) {
    return handle(x, null);
  }

  Reply handleStaged(Exchange x) {
    return handle(x, x.path("grant"));
  }

  private Reply handle(Exchange x, String grant) {
    StorageRequest request = SignRequestReader.read(x.body());
    Caller caller = x.caller(authz);
    String name = x.path("prefix");
    visibility.require(caller, "accessCatalog", name);
    SluiceCatalog catalog = catalogs.resolve(name);
    TableIdentifier table = TableIdentifier.of(x.namespace("namespace"), x.path("table"));
    StorageProfile profile = catalog.settings().storage();
    if (!profile.offered().contains(Delegation.Kind.REMOTE_SIGNING)) {
      throw new BadRequestException(
          "Catalog %s does not offer remote signing (storageConfigInfo.delegation)",
          catalog.name());
    }

    SecurableRef ref = Securables.tableRef(table);
    RequestSigner signer = vending.signer(profile);
    RequestTarget target;
    try {
      target = signer.target(request);
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
    if (grant == null) {
      owned =
          locations.get(new TableKey(catalog.name(), table), k -> catalog.tableLocationKeys(table));
    } else {
      StagedSigningGrant staged =
          StagedSigningGrant.verify(tokens, grant, caller.principal(), catalog.name(), table);
      owned = catalog.stagedLocationKeys(table, staged.locationKeys());
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

    SortedMap<String, String> attribution = new TreeMap<>();
    attribution.put("principal", caller.principal());
    attribution.put("catalog", catalog.name());
    attribution.put("namespace", table.namespace().toString());
    attribution.put("table", table.toString());
    SignedRequest signed;
    try {
      signed =
          vending.sign(
              profile,
              catalog.settings().locationPolicy(),
              owned.stream().map(SignRoute::location).toList(),
              target.needed(),
              attribution,
              request);
    } catch (IllegalArgumentException e) {
      authz.record(caller, ACTION, catalog.name(), ref.toString(), false, e.getMessage());
      throw new ForbiddenException("Cannot sign for table %s: %s", table, e.getMessage());
    }
    Map<String, Object> body = new LinkedHashMap<>();
    body.put("uri", signed.uri().toString());
    body.put("headers", signed.headers());
    // Never cached: Iceberg's signer client keeps cacheable signatures in one JVM-wide cache keyed
    // by method, region and URI, not by principal, so a cached read would reach other principals.
    return Reply.okPlain(body).withHeader("Cache-Control", "no-store");
  }

  /** A claimed location key ({@code s3://b/wh/t/}) as the location it names. */
  private static String location(String key) {
    return key.endsWith("/") ? key.substring(0, key.length() - 1) : key;
  }
}
