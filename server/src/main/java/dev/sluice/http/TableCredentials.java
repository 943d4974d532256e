package dev.sluice.http;

import static java.util.Objects.requireNonNull;

import dev.sluice.authz.Authorizer;
import dev.sluice.authz.Caller;
import dev.sluice.authz.Privilege;
import dev.sluice.catalog.SluiceCatalog;
import dev.sluice.store.SecurableRef;
import dev.sluice.vending.AccessMode;
import dev.sluice.vending.ClientProperties;
import dev.sluice.vending.StorageCredential;
import dev.sluice.vending.VendingService;
import dev.sluice.vending.s3.S3StorageProfile;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import java.util.Arrays;
import java.util.Optional;
import java.util.Set;
import java.util.SortedMap;
import java.util.TreeMap;
import org.apache.iceberg.TableMetadata;
import org.apache.iceberg.catalog.TableIdentifier;
import org.apache.iceberg.rest.RESTUtil;
import org.apache.iceberg.rest.credentials.Credential;
import org.apache.iceberg.rest.credentials.ImmutableCredential;
import org.apache.iceberg.rest.responses.LoadTableResponse;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Credentials in table responses. Before the operation, {@link #decide} picks the access mode from
 * the caller's privileges on the table (TABLE_WRITE_DATA → read-write, TABLE_READ_DATA → read-only;
 * a caller that asks for credentials without TABLE_READ_DATA is refused, 403). After it, {@link
 * #attach} puts the credential in {@code storage-credentials} and {@code config}.
 */
final class TableCredentials {
  private static final Logger LOG = LoggerFactory.getLogger(TableCredentials.class);

  private final Authorizer authz;
  private final VendingService vending;
  private final Counter askedForCredentials;
  private final Counter notAskedForCredentials;

  TableCredentials(Authorizer authz, VendingService vending, MeterRegistry metrics) {
    this.authz = requireNonNull(authz, "authz");
    this.vending = requireNonNull(vending, "vending");
    requireNonNull(metrics, "metrics");
    this.askedForCredentials =
        metrics.counter("sluice.access_delegation.requests", "vended_credentials", "true");
    this.notAskedForCredentials =
        metrics.counter("sluice.access_delegation.requests", "vended_credentials", "false");
  }

  /**
   * Whether the client sent {@code X-Iceberg-Access-Delegation: vended-credentials}; counted either
   * way.
   */
  boolean asked(Exchange x) {
    String header = x.header(ClientProperties.ACCESS_DELEGATION_HEADER);
    boolean asked =
        header != null
            && Arrays.stream(header.split(","))
                .map(String::trim)
                .anyMatch(ClientProperties.VENDED_CREDENTIALS::equalsIgnoreCase);
    (asked ? askedForCredentials : notAskedForCredentials).increment();
    LOG.debug("access delegation header {}", asked ? "vended-credentials" : "absent");
    return asked;
  }

  /**
   * The mode to vend for this caller on this table, or empty for none; 403 if asked for without
   * TABLE_READ_DATA.
   */
  Optional<AccessMode> decide(
      Exchange x, Caller caller, SluiceCatalog catalog, TableIdentifier table) {
    S3StorageProfile profile = catalog.settings().s3();
    boolean asked = asked(x);
    if (profile == null || (profile.vendOnlyOnRequest() && !asked)) {
      return Optional.empty();
    }
    SecurableRef ref = Securables.tableRef(table);
    Set<Privilege> held = authz.effective(caller, catalog.name(), ref);
    if (held.contains(Privilege.TABLE_WRITE_DATA)) {
      return Optional.of(AccessMode.READ_WRITE);
    }
    if (held.contains(Privilege.TABLE_READ_DATA)) {
      return Optional.of(AccessMode.READ);
    }
    if (asked) {
      authz.require(caller, "vendCredentials", catalog.name(), ref, Privilege.TABLE_READ_DATA);
    }
    return Optional.empty();
  }

  /** The credential for a table's current metadata, if one may be vended. */
  Optional<StorageCredential> vend(
      Caller caller,
      SluiceCatalog catalog,
      TableIdentifier table,
      TableMetadata metadata,
      AccessMode mode) {
    SortedMap<String, String> attribution = new TreeMap<>();
    attribution.put("principal", caller.principal());
    attribution.put("catalog", catalog.name());
    attribution.put("namespace", table.namespace().toString());
    attribution.put("table", table.toString());
    return vending.vend(
        catalog.settings().storageKey(),
        catalog.settings().s3(),
        catalog.settings().locationPolicy(),
        metadata.location(),
        metadata.properties(),
        mode,
        attribution);
  }

  /** {@code response} with the credential added; refresh keys unless the table is only staged. */
  LoadTableResponse attach(
      Optional<AccessMode> mode,
      Caller caller,
      SluiceCatalog catalog,
      TableIdentifier table,
      LoadTableResponse response,
      boolean staged) {
    if (mode.isEmpty()) {
      return response;
    }
    TableMetadata metadata = catalog.metadataOf(response);
    Optional<StorageCredential> credential = vend(caller, catalog, table, metadata, mode.get());
    if (credential.isEmpty()) {
      return response;
    }
    LoadTableResponse.Builder out =
        LoadTableResponse.builder()
            .withTableMetadata(metadata)
            .addAllConfig(response.config())
            .addAllConfig(credential.get().config())
            .addCredential(credential(credential.get()));
    if (!staged) {
      out.addConfig(ClientProperties.REFRESH_CREDENTIALS_ENDPOINT, refreshEndpoint(catalog, table));
      out.addConfig(ClientProperties.REFRESH_CREDENTIALS_ENABLED, "true");
    }
    return out.build();
  }

  static Credential credential(StorageCredential credential) {
    return ImmutableCredential.builder()
        .prefix(credential.prefix())
        .config(credential.config())
        .build();
  }

  /** Relative to the catalog URI, as Iceberg's clients resolve it. */
  static String refreshEndpoint(SluiceCatalog catalog, TableIdentifier table) {
    return "v1/"
        + RESTUtil.encodeString(catalog.name())
        + "/namespaces/"
        + RESTUtil.encodeNamespace(table.namespace())
        + "/tables/"
        + RESTUtil.encodeString(table.name())
        + "/credentials";
  }
}
