package dev.sluice.operations;

import static java.util.Objects.requireNonNull;

import dev.sluice.auth.TokenService;
import dev.sluice.authz.Authorizer;
import dev.sluice.authz.Privilege;
import dev.sluice.catalog.SluiceCatalog;
import dev.sluice.store.SecurableRef;
import dev.sluice.vending.AccessMode;
import dev.sluice.vending.Delegation;
import dev.sluice.vending.StorageCredential;
import dev.sluice.vending.StorageProfile;
import dev.sluice.vending.VendingService;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import java.time.Clock;
import java.time.Duration;
import java.util.EnumMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import org.apache.iceberg.TableMetadata;
import org.apache.iceberg.catalog.TableIdentifier;
import org.apache.iceberg.exceptions.ForbiddenException;
import org.apache.iceberg.rest.RESTUtil;
import org.apache.iceberg.rest.credentials.Credential;
import org.apache.iceberg.rest.credentials.ImmutableCredential;
import org.apache.iceberg.rest.responses.LoadTableResponse;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Storage access in table responses, for every backend. Before the operation, {@link #decide}
 * settles the {@link Delegation} once: the kind from the client's {@code
 * X-Iceberg-Access-Delegation} header and what the catalog offers, the access mode from the
 * caller's privileges on the table (TABLE_WRITE_DATA → read-write, TABLE_READ_DATA → read-only; a
 * caller that asks without TABLE_READ_DATA is refused, 403). After it, {@link #attach} carries it
 * out: credentials in {@code storage-credentials} and {@code config}. Every method takes the
 * request as a {@link TableCall}.
 */
public final class TableCredentials {
  /** The action the refresh endpoints' decisions are audited as. */
  static final String REFRESH_ACTION = "loadCredentials";

  private static final Logger LOG = LoggerFactory.getLogger(TableCredentials.class);

  private final Authorizer authz;
  private final VendingService vending;
  private final TokenService tokens;
  private final Clock clock;
  private final Duration stagedGrantLifetime;
  // Registered once: every load counts the header, so no meter lookup per request.
  private final Map<Delegation.Kind, Counter> requestedCounters =
      new EnumMap<>(Delegation.Kind.class);
  private final Counter requestedNone;

  public TableCredentials(
      Authorizer authz,
      VendingService vending,
      TokenService tokens,
      Clock clock,
      Duration stagedGrantLifetime,
      MeterRegistry metrics) {
    this.authz = requireNonNull(authz, "authz");
    this.vending = requireNonNull(vending, "vending");
    this.tokens = requireNonNull(tokens, "tokens");
    this.clock = requireNonNull(clock, "clock");
    this.stagedGrantLifetime = requireNonNull(stagedGrantLifetime, "stagedGrantLifetime");
    requireNonNull(metrics, "metrics");
    for (Delegation.Kind kind : Delegation.Kind.values()) {
      requestedCounters.put(kind, requestCounter(metrics, kind.headerValue()));
    }
    this.requestedNone = requestCounter(metrics, "none");
  }

  private static Counter requestCounter(MeterRegistry metrics, String requested) {
    return metrics.counter("sluice.access_delegation.requests", "requested", requested);
  }

  /**
   * The delegation for a table response to {@code call} (load, create, register, commit), whose
   * client sent {@code accessDelegation} ({@code X-Iceberg-Access-Delegation}; null if absent).
   */
  public Delegation decide(TableCall call, String accessDelegation) {
    StorageProfile profile = call.catalog().settings().storage();
    if (Delegation.declined(accessDelegation)) {
      requestedNone.increment();
      return Delegation.NONE;
    }
    Set<Delegation.Kind> requested = Delegation.requested(accessDelegation);
    count(requested);
    Optional<Delegation.Kind> kind =
        Delegation.choose(requested, profile.offered(), profile.delegateOnlyOnRequest());
    if (kind.isEmpty()) {
      return Delegation.NONE;
    }
    boolean asked = requested.contains(kind.get());
    return mode(call, asked).map(mode -> Delegation.of(kind.get(), mode)).orElse(Delegation.NONE);
  }

  /**
   * The delegation for {@code GET …/credentials} (the refresh endpoint): what a load by this caller
   * would get now, asked for explicitly (403 without TABLE_READ_DATA); none when the catalog vends
   * nothing.
   */
  Delegation decideRefresh(TableCall call) {
    if (!vends(call.catalog())) {
      return Delegation.NONE;
    }
    return Delegation.of(Delegation.Kind.VENDED_CREDENTIALS, mode(call, true).orElseThrow());
  }

  /** True when {@code catalog}'s storage offers vended credentials. */
  static boolean vends(SluiceCatalog catalog) {
    return catalog.settings().storage().offered().contains(Delegation.Kind.VENDED_CREDENTIALS);
  }

  /**
   * The staged-table grant for the refresh endpoint in {@code token}, for this caller, catalog and
   * table; a 403 otherwise, recorded in the audit trail like every refusal.
   */
  StagedTableGrant verifyStagedRefresh(TableCall call, String token) {
    try {
      return StagedTableGrant.verify(
          tokens,
          token,
          StagedTableGrant.Purpose.CREDENTIALS,
          call.caller().principal(),
          call.catalog().name(),
          call.table());
    } catch (ForbiddenException e) {
      authz.record(
          call.caller(),
          REFRESH_ACTION,
          call.catalog().name(),
          Securables.tableRef(call.table()).toString(),
          false,
          e.getMessage());
      throw e;
    }
  }

  /**
   * Read-write with TABLE_WRITE_DATA, read with TABLE_READ_DATA; else 403 if asked, none if not.
   */
  private Optional<AccessMode> mode(TableCall call, boolean asked) {
    SecurableRef ref = Securables.tableRef(call.table());
    Set<Privilege> held = authz.effective(call.caller(), call.catalog().name(), ref);
    if (held.contains(Privilege.TABLE_WRITE_DATA)) {
      return Optional.of(AccessMode.READ_WRITE);
    }
    if (held.contains(Privilege.TABLE_READ_DATA)) {
      return Optional.of(AccessMode.READ);
    }
    if (asked) {
      authz.require(
          call.caller(), "vendCredentials", call.catalog().name(), ref, Privilege.TABLE_READ_DATA);
    }
    return Optional.empty();
  }

  private void count(Set<Delegation.Kind> requested) {
    if (requested.isEmpty()) {
      requestedNone.increment();
    }
    for (Delegation.Kind kind : requested) {
      requestedCounters.get(kind).increment();
    }
  }

  /** The credentials for a table's current metadata under {@code delegation}; empty for none. */
  List<StorageCredential> credentials(
      TableCall call, Delegation delegation, TableMetadata metadata) {
    return credentials(call, delegation, metadata.location(), metadata.properties());
  }

  /**
   * The credentials for a table at {@code location} with {@code properties} (its stored metadata's,
   * or a staged table's as its grant names them) under {@code delegation}; empty for none.
   */
  List<StorageCredential> credentials(
      TableCall call, Delegation delegation, String location, Map<String, String> properties) {
    if (delegation.kind() != Delegation.Kind.VENDED_CREDENTIALS) {
      return List.of();
    }
    SluiceCatalog catalog = call.catalog();
    Optional<String> unvendable = catalog.unvendable(call.table(), location, properties);
    if (unvendable.isPresent()) {
      // As for an unsafe location: the table is served, without credentials, and the trail says
      // why.
      authz.record(
          call.caller(),
          "vendCredentials",
          catalog.name(),
          Securables.tableRef(call.table()).toString(),
          false,
          unvendable.get());
      LOG.warn("No credentials for {}.{}: {}", catalog.name(), call.table(), unvendable.get());
      return List.of();
    }
    // The namespace's storage identity when it (or an ancestor) has one: its own role.
    return vending.vend(
        catalog.storageFor(call.table().namespace()),
        catalog.settings().locationPolicy(),
        location,
        properties,
        delegation.mode().orElseThrow(),
        call.attribution());
  }

  /** A loaded table's response with the delegation carried out. */
  record Loaded(LoadTableResponse response, long credentialsExpireAtMs) {
    /** No vended credential: nothing in the response expires. */
    static final long NEVER = Long.MAX_VALUE;
  }

  /**
   * What {@link #attach} gives a loaded (not staged) table, and when the earliest of its vended
   * credentials expires ({@link Loaded#NEVER} without one): a conditional load must not confirm a
   * credential that is about to expire.
   */
  Loaded attachToLoad(TableCall call, Delegation delegation, LoadTableResponse response) {
    if (delegation.kind() != Delegation.Kind.VENDED_CREDENTIALS) {
      return new Loaded(attach(call, delegation, response), Loaded.NEVER);
    }
    TableMetadata metadata = call.catalog().metadataOf(call.table(), response);
    List<StorageCredential> vended = credentials(call, delegation, metadata);
    long expires =
        vended.stream().mapToLong(StorageCredential::expiresAtMs).min().orElse(Loaded.NEVER);
    return new Loaded(withCredentials(call, response, metadata, vended, false), expires);
  }

  /** {@code response}, a stored table's, with the delegation carried out and refresh keys. */
  LoadTableResponse attach(TableCall call, Delegation delegation, LoadTableResponse response) {
    return attach(call, delegation, response, false);
  }

  /**
   * {@code response}, a staged table's (nothing of it is stored yet), with the delegation carried
   * out: its refresh or signing endpoint carries a {@link StagedTableGrant} for that endpoint.
   */
  LoadTableResponse attachStaged(
      TableCall call, Delegation delegation, LoadTableResponse response) {
    return attach(call, delegation, response, true);
  }

  private LoadTableResponse attach(
      TableCall call, Delegation delegation, LoadTableResponse response, boolean staged) {
    if (delegation.isNone()) {
      return response;
    }
    SluiceCatalog catalog = call.catalog();
    TableMetadata metadata = catalog.metadataOf(call.table(), response);
    if (delegation.kind() == Delegation.Kind.REMOTE_SIGNING) {
      return withSigning(
          call,
          response,
          metadata,
          staged ? stagedSignEndpoint(call, metadata) : signEndpoint(catalog, call.table()));
    }
    return withCredentials(
        call, response, metadata, credentials(call, delegation, metadata), staged);
  }

  /**
   * {@link #attach} for the answer to a commit already applied: whatever fails in it (a provider
   * down, most often) leaves the answer without credentials, never an error. An error would tell
   * the client that its applied commit failed, and Iceberg's client would send it again. The client
   * gets credentials at the table's refresh endpoint, or from its next load.
   */
  LoadTableResponse attachAfterCommit(
      TableCall call, Delegation delegation, LoadTableResponse committed) {
    try {
      return attach(call, delegation, committed);
    } catch (RuntimeException e) {
      LOG.warn(
          "Answering the commit to {}.{} without credentials, since they cannot be vended: {}",
          call.catalog().name(),
          call.table(),
          e.getMessage());
      return committed;
    }
  }

  /**
   * {@code response} carrying {@code vended}, credentials already vended for its metadata's
   * locations (a create vends before its pointer commits), or the signing keys under remote
   * signing; with refresh keys.
   */
  LoadTableResponse withVended(
      TableCall call,
      Delegation delegation,
      LoadTableResponse response,
      List<StorageCredential> vended) {
    if (delegation.kind() == Delegation.Kind.REMOTE_SIGNING) {
      return withSigning(
          call,
          response,
          call.catalog().metadataOf(call.table(), response),
          signEndpoint(call.catalog(), call.table()));
    }
    return vended.isEmpty()
        ? response
        : withCredentials(
            call, response, call.catalog().metadataOf(call.table(), response), vended, false);
  }

  /**
   * {@code response}, whose table metadata is {@code metadata}, with the catalog's signing keys,
   * signing at {@code endpoint}; no key.
   */
  private static LoadTableResponse withSigning(
      TableCall call, LoadTableResponse response, TableMetadata metadata, String endpoint) {
    return LoadTableResponse.builder()
        .withTableMetadata(metadata)
        .addAllConfig(response.config())
        .addAllConfig(call.catalog().settings().storage().signingConfig(endpoint))
        .build();
  }

  /**
   * A staged table's signing endpoint: the table's, plus a grant naming the caller and the staged
   * metadata's locations, since nothing of the table is stored until its create commits.
   */
  private String stagedSignEndpoint(TableCall call, TableMetadata metadata) {
    String grant =
        StagedTableGrant.issue(
            tokens,
            clock,
            stagedGrantLifetime,
            StagedTableGrant.Purpose.SIGN,
            call.caller().principal(),
            call.catalog().name(),
            call.table(),
            metadata);
    return signEndpoint(call.catalog(), call.table()) + "/" + grant;
  }

  /**
   * A staged table's refresh endpoint: the table's, plus a grant naming the caller and the staged
   * metadata's locations, since nothing of the table is stored until its create commits.
   */
  private String stagedRefreshEndpoint(TableCall call, TableMetadata metadata) {
    String grant =
        StagedTableGrant.issue(
            tokens,
            clock,
            stagedGrantLifetime,
            StagedTableGrant.Purpose.CREDENTIALS,
            call.caller().principal(),
            call.catalog().name(),
            call.table(),
            metadata);
    return stagedRefreshEndpoint(call.catalog(), call.table(), grant);
  }

  private LoadTableResponse withCredentials(
      TableCall call,
      LoadTableResponse response,
      TableMetadata metadata,
      List<StorageCredential> vended,
      boolean staged) {
    if (vended.isEmpty()) {
      return response;
    }
    LoadTableResponse.Builder out =
        LoadTableResponse.builder().withTableMetadata(metadata).addAllConfig(response.config());
    // The first credential also goes into config, for clients that read only config (iceberg-js,
    // older Iceberg Java); storage-credentials carries each with its prefix.
    out.addAllConfig(vended.get(0).config());
    // A staged table has no stored row for the ordinary endpoint to serve: its own carries a grant.
    Map<String, String> refresh =
        call.catalog()
            .settings()
            .storage()
            .refreshConfig(
                staged
                    ? stagedRefreshEndpoint(call, metadata)
                    : refreshEndpoint(call.catalog(), call.table()));
    out.addAllConfig(refresh);
    vended.forEach(credential -> out.addCredential(credential(credential, refresh)));
    return out.build();
  }

  /**
   * {@code credential} as Iceberg's storage credential, with {@code refresh}, the keys that say
   * where to refresh it: a client that reads only a credential's own config still finds them.
   */
  static Credential credential(StorageCredential credential, Map<String, String> refresh) {
    Map<String, String> config = new LinkedHashMap<>(credential.config());
    config.putAll(refresh);
    return ImmutableCredential.builder().prefix(credential.prefix()).config(config).build();
  }

  /** The keys that point an engine at {@code call}'s table's ordinary refresh endpoint. */
  static Map<String, String> refreshConfig(TableCall call) {
    return call.catalog()
        .settings()
        .storage()
        .refreshConfig(refreshEndpoint(call.catalog(), call.table()));
  }

  /** The keys that point an engine at a staged table's refresh endpoint holding {@code grant}. */
  static Map<String, String> stagedRefreshConfig(TableCall call, String grant) {
    return call.catalog()
        .settings()
        .storage()
        .refreshConfig(stagedRefreshEndpoint(call.catalog(), call.table(), grant));
  }

  /**
   * A staged table's refresh endpoint, relative to the catalog URI: the grant is its last segment.
   */
  static String stagedRefreshEndpoint(SluiceCatalog catalog, TableIdentifier table, String grant) {
    return refreshEndpoint(catalog, table) + "/" + grant;
  }

  /** Relative to the catalog URI, as Iceberg's clients resolve it. */
  static String refreshEndpoint(SluiceCatalog catalog, TableIdentifier table) {
    return tablePath(catalog, table) + "/credentials";
  }

  /** The table's signing endpoint (the spec's signRequest), relative to the catalog URI. */
  static String signEndpoint(SluiceCatalog catalog, TableIdentifier table) {
    return tablePath(catalog, table) + "/sign";
  }

  /** A scan plan's signing endpoint, relative to the catalog URI: signs the plan's files only. */
  static String planSignEndpoint(SluiceCatalog catalog, TableIdentifier table, String planId) {
    return tablePath(catalog, table) + "/plan/" + RESTUtil.encodeString(planId) + "/sign";
  }

  private static String tablePath(SluiceCatalog catalog, TableIdentifier table) {
    return "v1/"
        + RESTUtil.encodeString(catalog.name())
        + "/namespaces/"
        + RESTUtil.encodeNamespace(table.namespace())
        + "/tables/"
        + RESTUtil.encodeString(table.name());
  }
}
