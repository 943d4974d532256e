package dev.sluice.http;

import static java.util.Objects.requireNonNull;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.sluice.authz.Caller;
import dev.sluice.catalog.SluiceCatalog;
import dev.sluice.operations.TableCall;
import dev.sluice.operations.TableMutations;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.Optional;
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
 * replay answers the first attempt's table, never the table as it is now: when neither the stored
 * metadata nor its file is there any more it is a 422, not a load of whatever the name holds now
 * (which a caller with TABLE_CREATE alone may not load). How a replay is authorized and vended
 * afresh is {@link TableMutations#replay}'s.
 */
final class TableReplays {
  private static final String METADATA_LOCATION = "metadata-location";

  /** How large a stored answer may be with its metadata; larger ones keep the file's name. */
  static final int STORED_METADATA_MAX_CHARS = 256 * 1024;

  private final IcebergRequests requests;
  private final TableMutations mutations;
  private final LoadTableBody body;

  TableReplays(IcebergRequests requests, TableMutations mutations, LoadTableBody body) {
    this.requests = requireNonNull(requests, "requests");
    this.mutations = requireNonNull(mutations, "mutations");
    this.body = requireNonNull(body, "body");
  }

  /** {@code POST …/tables}, staged or not. */
  IdempotentMutations.Answers create() {
    return answers(
        (x, call) -> {
          JsonNode request = x.jsonBody();
          return new TableMutations.Replay(
              call.about(TableIdentifier.of(x.namespace("namespace"), name(request))),
              request.path("stage-create").asBoolean(false)
                  ? TableMutations.Answered.STAGED_CREATE
                  : TableMutations.Answered.CREATE,
              null,
              TableRoutes.accessDelegation(x));
        });
  }

  /** {@code POST …/register}. */
  IdempotentMutations.Answers register() {
    return answers(
        (x, call) ->
            new TableMutations.Replay(
                call.about(TableIdentifier.of(x.namespace("namespace"), name(x.jsonBody()))),
                TableMutations.Answered.REGISTER,
                null,
                TableRoutes.accessDelegation(x)));
  }

  /** {@code POST …/tables/{table}} (a commit, or the commit of a staged create). */
  IdempotentMutations.Answers commit() {
    return answers(
        (x, call) ->
            new TableMutations.Replay(
                call.about(TableIdentifier.of(x.namespace("namespace"), x.path("table"))),
                TableMutations.Answered.COMMIT,
                x.icebergBody(UpdateTableRequest.class),
                TableRoutes.accessDelegation(x)));
  }

  /** What a retry asks to replay, read from its exchange. */
  @FunctionalInterface
  private interface ReplayOf {
    /** {@code call}: the caller and catalog, about no table yet. */
    TableMutations.Replay read(Exchange x, CatalogCall call);
  }

  /** The caller and the prefix's catalog, resolved for the caller, before the body is read. */
  private record CatalogCall(Caller caller, SluiceCatalog catalog) {
    TableCall about(TableIdentifier table) {
      return new TableCall(caller, catalog, table);
    }
  }

  private IdempotentMutations.Answers answers(ReplayOf replayOf) {
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
        CatalogCall call = new CatalogCall(requests.caller(x), requests.catalog(x));
        Optional<LoadTableResponse> answer =
            mutations.replay(replayOf.read(x, call), catalog -> original(catalog, stored));
        if (answer.isEmpty()) {
          return HttpServer.error(
              422,
              "UnprocessableEntityException",
              "The first answer to "
                  + IdempotentMutations.HEADER
                  + " "
                  + x.header(IdempotentMutations.HEADER)
                  + " is no longer available (its metadata file is gone): load the table instead");
        }
        return Reply.ok(body.toJson(answer.get()));
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
