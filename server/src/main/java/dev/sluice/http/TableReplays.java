package dev.sluice.http;

import static dev.sluice.http.Securables.namespace;
import static dev.sluice.http.Securables.tableRef;
import static java.util.Objects.requireNonNull;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.sluice.authz.Authorizer;
import dev.sluice.authz.Caller;
import dev.sluice.authz.CatalogVisibility;
import dev.sluice.authz.CommitPrivileges;
import dev.sluice.authz.Privilege;
import dev.sluice.catalog.CatalogRegistry;
import dev.sluice.catalog.SluiceCatalog;
import dev.sluice.vending.Delegation;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.Optional;
import org.apache.iceberg.TableMetadata;
import org.apache.iceberg.TableMetadataParser;
import org.apache.iceberg.catalog.TableIdentifier;
import org.apache.iceberg.exceptions.NotFoundException;
import org.apache.iceberg.rest.requests.UpdateTableRequest;
import org.apache.iceberg.rest.responses.LoadTableResponse;
import org.apache.iceberg.rest.responses.LoadTableResponseParser;

/**
 * Idempotent answers of the requests that return a table (create, stage-create, register, commit).
 * What is stored is the answer without its {@code config} and {@code storage-credentials}: its
 * metadata itself up to {@link #STORED_METADATA_MAX_CHARS}, else only its metadata file's name. A
 * replay is authorized as the request itself was, for the caller who replays now, and answers the
 * first attempt's table, never the table as it is now: when neither the stored metadata nor its
 * file is there any more it is a 422, not a load of whatever the name holds now (which a caller
 * with TABLE_CREATE alone may not load). It vends afresh, under the caller's grants now, and only
 * while the name still holds that very table (same UUID), or, for a staged create, while its
 * locations are still free: never for a table dropped and created again, or for a location another
 * table took since.
 */
final class TableReplays {
  private static final String METADATA_LOCATION = "metadata-location";

  /** How large a stored answer may be with its metadata; larger ones keep the file's name. */
  static final int STORED_METADATA_MAX_CHARS = 256 * 1024;

  private final CatalogRegistry catalogs;
  private final Authorizer authz;
  private final CatalogVisibility visibility;
  private final TableCredentials credentials;
  private final LoadTableBody body;

  TableReplays(
      CatalogRegistry catalogs,
      Authorizer authz,
      CatalogVisibility visibility,
      TableCredentials credentials,
      LoadTableBody body) {
    this.catalogs = requireNonNull(catalogs, "catalogs");
    this.authz = requireNonNull(authz, "authz");
    this.visibility = requireNonNull(visibility, "visibility");
    this.credentials = requireNonNull(credentials, "credentials");
    this.body = requireNonNull(body, "body");
  }

  /** {@code POST …/tables}, staged or not. */
  IdempotentMutations.Answers create() {
    return answers(
        (x, caller, catalog) -> {
          JsonNode request = x.jsonBody();
          TableIdentifier id = TableIdentifier.of(x.namespace("namespace"), name(request));
          authz.require(
              caller,
              "createTable",
              catalog.name(),
              namespace(id.namespace()),
              Privilege.TABLE_CREATE);
          return new Target(id, request.path("stage-create").asBoolean(false), false);
        });
  }

  /** {@code POST …/register}. */
  IdempotentMutations.Answers register() {
    return answers(
        (x, caller, catalog) -> {
          TableIdentifier id = TableIdentifier.of(x.namespace("namespace"), name(x.jsonBody()));
          authz.require(
              caller,
              "registerTable",
              catalog.name(),
              namespace(id.namespace()),
              Privilege.TABLE_CREATE);
          return new Target(id, false, false);
        });
  }

  /** {@code POST …/tables/{table}} (a commit, or the commit of a staged create). */
  IdempotentMutations.Answers commit() {
    return answers(
        (x, caller, catalog) -> {
          TableIdentifier id = TableIdentifier.of(x.namespace("namespace"), x.path("table"));
          UpdateTableRequest request = x.icebergBody(UpdateTableRequest.class);
          if (CommitPrivileges.createsTable(request)) {
            authz.require(
                caller,
                "createTable",
                catalog.name(),
                namespace(id.namespace()),
                Privilege.TABLE_CREATE);
          }
          for (Privilege needed : CommitPrivileges.onTable(request)) {
            authz.require(caller, "updateTable", catalog.name(), tableRef(id), needed);
          }
          return new Target(id, false, true);
        });
  }

  /**
   * The table a replay answers; {@code commit}: a commit's answer, given without credentials when
   * they cannot be vended (its client builds no FileIO from it, unlike a create's).
   */
  private record Target(TableIdentifier table, boolean staged, boolean commit) {}

  @FunctionalInterface
  private interface Authorize {
    Target check(Exchange x, Caller caller, SluiceCatalog catalog);
  }

  private IdempotentMutations.Answers answers(Authorize authorize) {
    return new IdempotentMutations.Answers() {
      @Override
      public String stored(byte[] json) {
        return withoutCredentials(json);
      }

      @Override
      public Reply replay(Exchange x, int status, String stored) {
        if (status != 200 || stored == null) {
          return IdempotentMutations.verbatim(status, stored);
        }
        String name = x.path("prefix");
        Caller caller = x.caller(authz);
        visibility.require(caller, "accessCatalog", name);
        SluiceCatalog catalog = catalogs.resolve(name);
        Target target = authorize.check(x, caller, catalog);
        Optional<LoadTableResponse> original = original(catalog, stored);
        if (original.isEmpty()) {
          return HttpServer.error(
              422,
              "UnprocessableEntityException",
              "The first answer to "
                  + IdempotentMutations.HEADER
                  + " "
                  + x.header(IdempotentMutations.HEADER)
                  + " is no longer available (its metadata file is gone): load the table instead");
        }
        TableMetadata answered = original.get().tableMetadata();
        Delegation delegation =
            catalog.stillHolds(target.table(), answered, target.staged())
                ? credentials.decide(x, caller, catalog, target.table())
                : Delegation.NONE;
        LoadTableResponse answer =
            target.commit()
                ? credentials.attachAfterCommit(
                    delegation, caller, catalog, target.table(), original.get())
                : credentials.attach(
                    delegation, caller, catalog, target.table(), original.get(), target.staged());
        return Reply.ok(body.toJson(answer));
      }
    };
  }

  /**
   * The answer as stored: no {@code config} (refresh and signing endpoints, keys) nor credentials;
   * and when it names its metadata file, only that name (the file is immutable, and a commit's
   * metadata can be large).
   */
  static String withoutCredentials(byte[] json) {
    try {
      JsonNode tree = Json.plain().readTree(json);
      if (tree instanceof ObjectNode object) {
        object.remove("config");
        object.remove("storage-credentials");
        String whole = Json.plain().writeValueAsString(object);
        if (whole.length() <= STORED_METADATA_MAX_CHARS || !object.hasNonNull(METADATA_LOCATION)) {
          return whole;
        }
        object.retain(METADATA_LOCATION);
      }
      return Json.plain().writeValueAsString(tree);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /**
   * The first attempt's table answer: as stored, or its metadata file read again (the file is
   * immutable); empty if that file is gone (expired by later commits, or purged).
   */
  private static Optional<LoadTableResponse> original(SluiceCatalog catalog, String stored) {
    JsonNode tree;
    try {
      tree = Json.plain().readTree(stored);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    if (tree.has("metadata")) {
      return Optional.of(LoadTableResponseParser.fromJson(stored));
    }
    String location = tree.path(METADATA_LOCATION).asText();
    try {
      return Optional.of(
          LoadTableResponse.builder()
              .withTableMetadata(TableMetadataParser.read(catalog.io(), location))
              .build());
    } catch (NotFoundException e) {
      return Optional.empty();
    }
  }

  private static String name(JsonNode request) {
    JsonNode name = request.get("name");
    return name == null ? "" : name.asText();
  }
}
