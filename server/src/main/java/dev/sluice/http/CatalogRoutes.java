package dev.sluice.http;

import static java.util.Objects.requireNonNull;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
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
import dev.sluice.vending.StorageField;
import dev.sluice.vending.verify.VerifyReport;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.function.Consumer;
import org.apache.iceberg.exceptions.BadRequestException;
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
    List<Map<String, Object>> types = new ArrayList<>();
    backends
        .formFields()
        .forEach(
            (type, fields) -> {
              List<Map<String, Object>> rendered = new ArrayList<>();
              for (StorageField field : fields) {
                Map<String, Object> f = new LinkedHashMap<>();
                f.put("key", field.key());
                f.put("label", field.label());
                if (field.hint() != null) {
                  f.put("hint", field.hint());
                }
                f.put("kind", field.kind().name().toLowerCase(Locale.ROOT));
                rendered.add(f);
              }
              types.add(Map.of("storageType", type, "fields", rendered));
            });
    return Reply.okPlain(Map.of("storageTypes", types));
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
    return Reply.okPlain(paging.body(x, "catalogs", page, CatalogRoutes::render));
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
    String other = null;
    if (x.body().length > 0) {
      JsonNode body = x.jsonBody();
      if (!body.isObject()) {
        throw new BadRequestException("Invalid request: expected a JSON object");
      }
      other = text(body, "otherLocation", false);
    }
    VerifyReport report =
        verification.verify(name, call.caller().principal(), Optional.ofNullable(other));
    return Reply.okPlain(VerifyReportJson.render(report));
  }

  Reply create(ManagementRoutes.Call call) {
    JsonNode body = call.x().jsonBody();
    JsonNode catalog = body.has("catalog") ? body.get("catalog") : body;
    if (!catalog.isObject()) {
      throw new BadRequestException("Invalid request: expected {\"catalog\": {...}}");
    }
    JsonNode verifyNode = body.get("verify");
    if (verifyNode != null && !verifyNode.isNull() && !verifyNode.isBoolean()) {
      throw new BadRequestException("Invalid verify: must be a boolean");
    }
    boolean verify = verifyNode != null && verifyNode.asBoolean();
    CatalogRecord created =
        catalogs.create(
            text(catalog, "name", true),
            text(catalog, "type", false),
            stringMap(catalog.get("properties"), "catalog.properties"),
            catalog.get("storageConfigInfo"));
    onChange.accept(created.name());
    Map<String, Object> answer = render(created);
    if (verify) {
      answer.put("verification", verifyCreated(created.name(), call.caller().principal()));
    }
    return Reply.status(201, answer);
  }

  /**
   * The self-check of a catalog just created ({@code "verify": true}): its report, or why it could
   * not run. The catalog stays either way; a failed verdict is for the operator to act on.
   */
  private Map<String, Object> verifyCreated(String name, String principal) {
    try {
      return VerifyReportJson.render(verification.verify(name, principal, Optional.empty()));
    } catch (UnprocessableEntityException e) {
      Map<String, Object> unavailable = new LinkedHashMap<>();
      unavailable.put("catalog", name);
      unavailable.put("verdict", "unavailable");
      unavailable.put("message", e.getMessage());
      return unavailable;
    }
  }

  /**
   * CATALOG_WRITE_PROPERTIES updates properties; where credentials come from and where tables may
   * live (storageConfigInfo, {@link CatalogAdmin#ADMIN_PROPERTIES}) is the service admin's alone,
   * and every such change is audited with the old and new values, secrets redacted.
   */
  Reply update(ManagementRoutes.Call call) {
    Exchange x = call.x();
    JsonNode body = x.jsonBody();
    if (!body.isObject()) {
      throw new BadRequestException("Invalid request: expected a JSON object");
    }
    JsonNode version = body.get("currentEntityVersion");
    if (version != null && !version.isIntegralNumber()) {
      throw new BadRequestException("Invalid currentEntityVersion: must be an integer");
    }
    JsonNode properties = body.get("properties");
    String name = x.path("name");
    CatalogAdmin.Change change =
        catalogs.plan(
            name,
            properties == null || properties.isNull() ? null : stringMap(properties, "properties"),
            body.get("storageConfigInfo"));
    Caller caller = call.caller();
    checks.updateCatalogStorage(caller, name, change.restricted());
    CatalogRecord updated = catalogs.apply(change, version == null ? null : version.asLong());
    if (!change.restricted().isEmpty()) {
      StorageChangeAudit.record(authz, backends, caller, change, updated);
    }
    onChange.accept(name);
    return Reply.okPlain(render(updated));
  }

  static Map<String, Object> render(CatalogRecord record) {
    Map<String, Object> out = new LinkedHashMap<>();
    out.put("type", record.type());
    out.put("name", record.name());
    out.put("properties", record.properties());
    out.put("createTimestamp", record.createdAt());
    out.put("lastUpdateTimestamp", record.updatedAt());
    out.put("entityVersion", record.version());
    try {
      out.put("storageConfigInfo", Json.plain().readTree(record.storageConfig()));
    } catch (JsonProcessingException e) {
      throw new IllegalStateException(
          "Corrupt storage configuration for catalog " + record.name(), e);
    }
    return out;
  }

  private static String text(JsonNode node, String field, boolean required) {
    JsonNode value = node.get(field);
    if (value == null || value.isNull()) {
      if (required) {
        throw new BadRequestException("Missing field: %s", field);
      }
      return null;
    }
    if (!value.isTextual()) {
      throw new BadRequestException("Invalid %s: must be a string", field);
    }
    return value.asText();
  }

  private static Map<String, String> stringMap(JsonNode node, String what) {
    Map<String, String> out = new LinkedHashMap<>();
    if (node == null || node.isNull()) {
      return out;
    }
    if (!(node instanceof ObjectNode object)) {
      throw new BadRequestException("Invalid %s: must be an object of strings", what);
    }
    object
        .fields()
        .forEachRemaining(
            e -> {
              if (!e.getValue().isTextual()) {
                throw new BadRequestException("Invalid %s.%s: must be a string", what, e.getKey());
              }
              out.put(e.getKey(), e.getValue().asText());
            });
    return out;
  }
}
