package dev.sluice.http;

import static java.util.Objects.requireNonNull;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.sluice.api.Catalog;
import dev.sluice.api.Catalogs;
import dev.sluice.api.ConnectionConfigInfo;
import dev.sluice.api.CreateCatalogRequest;
import dev.sluice.api.ManagementJson;
import dev.sluice.api.StorageTypes;
import dev.sluice.api.UpdateCatalogRequest;
import dev.sluice.api.VerificationReport;
import dev.sluice.api.VerifyCatalogRequest;
import dev.sluice.auth.Sealer;
import dev.sluice.authz.Authorizer;
import dev.sluice.authz.Caller;
import dev.sluice.management.CatalogAdmin;
import dev.sluice.management.CatalogVerification;
import dev.sluice.management.ManagementAccess;
import dev.sluice.management.StorageChangeAudit;
import dev.sluice.store.CatalogRecord;
import dev.sluice.store.Page;
import dev.sluice.store.PageRequest;
import dev.sluice.vending.StorageBackends;
import dev.sluice.vending.verify.VerifyReport;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.Set;
import java.util.function.Consumer;
import org.apache.iceberg.exceptions.UnprocessableEntityException;

/**
 * The catalog routes of the management API ({@link ManagementRoutes} declares them and the checks
 * that guard them): create, list, read, update, verify and delete catalogs, and the storage types a
 * catalog may have.
 */
public final class CatalogRoutes {

  private final CatalogAdmin catalogs;
  private final StorageBackends backends;
  private final Authorizer authz;
  private final ManagementAccess checks;
  private final Consumer<String> onChange;
  private final CatalogVerification verification;
  private final Paging paging;

  /**
   * {@code onChange} gets the name of each catalog created, changed or deleted; {@code
   * verification} runs the storage self-check; {@code pageTokens} seals list tokens.
   */
  public CatalogRoutes(
      CatalogAdmin catalogs,
      Authorizer authz,
      ManagementAccess checks,
      Consumer<String> onChange,
      CatalogVerification verification,
      Sealer pageTokens,
      StorageBackends backends) {
    this.catalogs = requireNonNull(catalogs, "catalogs");
    this.backends = requireNonNull(backends, "backends");
    this.paging = new Paging(pageTokens);
    this.authz = requireNonNull(authz, "authz");
    this.checks = requireNonNull(checks, "checks");
    this.onChange = requireNonNull(onChange, "onChange");
    this.verification = requireNonNull(verification, "verification");
  }

  Reply get(ManagementRoutes.Call call) {
    return Reply.okPlain(render(catalogs.get(call.x().path("name"))));
  }

  Reply delete(ManagementRoutes.Call call) {
    String name = call.x().path("name");
    catalogs.delete(name);
    onChange.accept(name);
    return Reply.NO_CONTENT;
  }

  /**
   * A Sluice extension: the storage types this server has, each with the {@code storageConfigInfo}
   * keys its catalog form offers (declared by the backend), so the console builds its form from the
   * server. Nothing secret: any authenticated principal may read it.
   */
  Reply storageTypes(ManagementRoutes.Call call) {
    List<StorageTypes.StorageType> types = new ArrayList<>();
    backends
        .formFields()
        .forEach(
            (type, fields) ->
                types.add(
                    new StorageTypes.StorageType(
                        type,
                        backends.takesCredentialSource(type),
                        fields.stream()
                            .map(
                                f ->
                                    new StorageTypes.FormField(
                                        f.key(),
                                        f.label(),
                                        f.hint(),
                                        f.kind().name().toLowerCase(Locale.ROOT),
                                        f.required()))
                            .toList())));
    return Reply.okPlain(new StorageTypes(types));
  }

  /**
   * The service admin sees every catalog; anyone else, the catalogs they hold a role in. Paged like
   * every list; for others a page is filtered, so it may hold fewer items than asked for (the token
   * still leads on), as Iceberg's filtered listings do.
   */
  Reply list(ManagementRoutes.Call call) {
    Exchange x = call.x();
    Caller caller = call.caller();
    PageRequest request = paging.request(x);
    Set<String> mine = checks.listedCatalogs(caller);
    Page<CatalogRecord> page;
    if (mine == null) {
      page = catalogs.list(request);
    } else {
      page =
          Page.visible(
              request,
              catalogs::list,
              c -> mine.contains(c.name()),
              c -> PageRequest.tokenFor(c.name()));
    }
    return Reply.okPlain(paging.page(x, page, CatalogRoutes::render, Catalogs::new));
  }

  /**
   * The storage self-check (service admin, or CATALOG_MANAGE_CONTENT on the catalog): an optional
   * body {@code {"otherLocation": "s3://other-bucket/"}}. Always 200 with the report when the check
   * ran, whatever its verdict: the verdict is the answer.
   */
  Reply verify(ManagementRoutes.Call call) {
    Exchange x = call.x();
    String name = x.path("name");
    catalogs.get(name); // 404 for the service admin too
    String other =
        x.body().length > 0 ? call.body(VerifyCatalogRequest.class).otherLocation() : null;
    VerifyReport report =
        verification.verify(name, call.caller().principal(), Optional.ofNullable(other));
    return Reply.okPlain(VerifyReportJson.render(report));
  }

  Reply create(ManagementRoutes.Call call) {
    CreateCatalogRequest request = call.body(CreateCatalogRequest.class);
    Catalog catalog = request.catalog();
    CatalogRecord created =
        catalogs.create(
            catalog.name(),
            catalog.type(),
            catalog.properties(),
            catalog.storageConfigInfo(),
            catalog.connectionConfigInfo());
    onChange.accept(created.name());
    Catalog answer = render(created);
    if (request.verifies()) {
      answer = answer.withVerification(verifyCreated(created.name(), call.caller().principal()));
    }
    return Reply.status(201, answer);
  }

  /**
   * The self-check of a catalog just created ({@code "verify": true}): its report, or why it could
   * not run. The catalog stays either way; a failed verdict is for the operator to act on.
   */
  private VerificationReport verifyCreated(String name, String principal) {
    try {
      return VerifyReportJson.render(verification.verify(name, principal, Optional.empty()));
    } catch (UnprocessableEntityException e) {
      return VerificationReport.unavailable(name, e.getMessage());
    }
  }

  /**
   * CATALOG_WRITE_PROPERTIES updates properties; where credentials come from and where tables may
   * live (storageConfigInfo, {@link CatalogAdmin#ADMIN_PROPERTIES}) is the service admin's alone,
   * and every such change is audited with the old and new values, secrets redacted.
   */
  Reply update(ManagementRoutes.Call call) {
    Exchange x = call.x();
    UpdateCatalogRequest request = call.body(UpdateCatalogRequest.class);
    String name = x.path("name");
    CatalogAdmin.Change change =
        catalogs.plan(
            name,
            request.properties(),
            request.storageConfigInfo(),
            request.connectionConfigInfo());
    Caller caller = call.caller();
    checks.updateCatalogStorage(caller, name, change.restricted());
    CatalogRecord updated = catalogs.apply(change, request.currentEntityVersion());
    if (!change.restricted().isEmpty()) {
      StorageChangeAudit.record(authz, backends, caller, change, updated);
    }
    onChange.accept(name);
    return Reply.okPlain(render(updated));
  }

  static Catalog render(CatalogRecord record) {
    try {
      return new Catalog(
          record.type(),
          record.name(),
          record.properties(),
          record.createdAt(),
          record.updatedAt(),
          record.version(),
          (ObjectNode) Json.plain().readTree(record.storageConfig()),
          null,
          record.connectionConfig() == null
              ? null
              : ManagementJson.lenient()
                  .readValue(record.connectionConfig(), ConnectionConfigInfo.class));
    } catch (JsonProcessingException | ClassCastException e) {
      throw new IllegalStateException(
          "Corrupt storage configuration for catalog " + record.name(), e);
    }
  }
}
