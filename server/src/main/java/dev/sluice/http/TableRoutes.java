package dev.sluice.http;

import static dev.sluice.http.IcebergRequests.table;
import static java.util.Objects.requireNonNull;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.sluice.authz.Caller;
import dev.sluice.catalog.SluiceCatalog;
import dev.sluice.operations.ScanPlans;
import dev.sluice.operations.SnapshotsMode;
import dev.sluice.operations.TableCall;
import dev.sluice.operations.TableLoads;
import dev.sluice.operations.TableMutations;
import dev.sluice.vending.ClientProperties;
import java.util.Map;
import org.apache.iceberg.exceptions.BadRequestException;
import org.apache.iceberg.rest.requests.CommitTransactionRequest;
import org.apache.iceberg.rest.requests.CreateTableRequest;
import org.apache.iceberg.rest.requests.RegisterTableRequest;
import org.apache.iceberg.rest.requests.RenameTableRequest;
import org.apache.iceberg.rest.requests.UpdateTableRequest;
import org.apache.iceberg.rest.responses.LoadTableResponse;

/**
 * The table routes as HTTP: each reads its request ({@link IcebergRequests} resolves the catalog
 * first, so a caller without standing is refused before the body is read), calls {@link TableLoads}
 * or {@link TableMutations}, and writes the answer ({@link LoadTableBody}). {@code Idempotency-Key}
 * is wrapped around the mutations by {@link IdempotentEndpoints}.
 */
final class TableRoutes {
  private static final String ETAG = "ETag";
  private static final String IF_NONE_MATCH = "If-None-Match";

  private final IcebergRequests requests;
  private final TableLoads loads;
  private final TableMutations mutations;
  private final LoadTableBody body;
  private final ScanPlans plans;

  TableRoutes(
      IcebergRequests requests,
      TableLoads loads,
      TableMutations mutations,
      LoadTableBody body,
      ScanPlans plans) {
    this.requests = requireNonNull(requests, "requests");
    this.loads = requireNonNull(loads, "loads");
    this.mutations = requireNonNull(mutations, "mutations");
    this.body = requireNonNull(body, "body");
    this.plans = requireNonNull(plans, "plans");
  }

  /** The client's {@code X-Iceberg-Access-Delegation}, null when absent. */
  static String accessDelegation(Exchange x) {
    return x.header(ClientProperties.ACCESS_DELEGATION_HEADER);
  }

  /** {@code GET …/tables/{table}}. */
  Reply load(Exchange x) {
    SnapshotsMode mode = SnapshotsMode.fromQuery(x.query("snapshots"));
    TableLoads.Loaded loaded =
        loads.load(
            new TableLoads.LoadTable(
                requests.tableCall(x), mode, accessDelegation(x), x.header(IF_NONE_MATCH)));
    if (loaded.notModified()) {
      return Reply.notModified(loaded.etag());
    }
    return new Reply(
        200,
        loaded.shown(body.toJson(loaded.response(), loaded.mode())),
        true,
        Map.of(ETAG, loaded.etag()));
  }

  /** {@code GET …/credentials}. */
  Reply loadCredentials(Exchange x) {
    String planId = x.query("planId");
    if (planId != null) {
      return Reply.ok(plans.credentials(requests.tableCall(x), planId));
    }
    return Reply.ok(loads.credentials(requests.tableCall(x)));
  }

  /** A staged table's refresh endpoint: a staged-table grant in the last segment. */
  static final String STAGED_CREDENTIALS_PATH =
      "/v1/{prefix}/namespaces/{namespace}/tables/{table}/credentials/{grant}";

  /** {@code GET …/credentials/{grant}}: a staged table's credentials, as its grant allows. */
  Reply loadStagedCredentials(Exchange x) {
    if (x.query("planId") != null) {
      throw new BadRequestException("planId is not supported for a staged table: it has no plans");
    }
    return Reply.ok(loads.stagedCredentials(requests.tableCall(x), x.path("grant")));
  }

  /** {@code POST …/tables}, staged or not. */
  Reply create(Exchange x) {
    SluiceCatalog catalog = requests.catalog(x);
    CreateTableRequest request =
        x.icebergBody(CreateTableRequest.class, TableRoutes::defaultSpecId);
    return mutations.create(
        new TableMutations.CreateTable(
            requests.caller(x), catalog, x.namespace("namespace"), request, accessDelegation(x)),
        this::tableReply);
  }

  /** {@code POST …/register}. */
  Reply register(Exchange x) {
    SluiceCatalog catalog = requests.catalog(x);
    RegisterTableRequest request = x.icebergBody(RegisterTableRequest.class);
    return mutations.register(
        new TableMutations.RegisterTable(
            requests.caller(x), catalog, x.namespace("namespace"), request, accessDelegation(x)),
        this::tableReply);
  }

  /** {@code POST …/tables/{table}}: a commit, or the commit of a staged create. */
  Reply commit(Exchange x) {
    SluiceCatalog catalog = requests.catalog(x);
    UpdateTableRequest request = x.icebergBody(UpdateTableRequest.class);
    TableCall call = new TableCall(requests.caller(x), catalog, table(x));
    return mutations.commit(
        new TableMutations.CommitTable(call, request, accessDelegation(x)), this::tableReply);
  }

  /** {@code DELETE …/tables/{table}}, with {@code purgeRequested}. */
  Reply drop(Exchange x) {
    TableCall call = requests.tableCall(x);
    mutations.drop(call, Boolean.parseBoolean(x.query("purgeRequested")));
    return Reply.NO_CONTENT;
  }

  /** {@code POST …/tables/rename}. */
  Reply rename(Exchange x) {
    SluiceCatalog catalog = requests.catalog(x);
    RenameTableRequest request = x.icebergBody(RenameTableRequest.class);
    mutations.rename(requests.caller(x), catalog, request);
    return Reply.NO_CONTENT;
  }

  /** {@code POST …/transactions/commit}. */
  Reply commitTransaction(Exchange x) {
    SluiceCatalog catalog = requests.catalog(x);
    CommitTransactionRequest request = x.icebergBody(CommitTransactionRequest.class);
    Caller caller = requests.caller(x);
    mutations.commitTransaction(caller, catalog, request);
    return Reply.NO_CONTENT;
  }

  private Reply tableReply(LoadTableResponse response) {
    return Reply.ok(body.mutationAnswer(response));
  }

  /** The REST spec makes a partition spec's {@code spec-id} optional; Iceberg's parser needs it. */
  private static void defaultSpecId(ObjectNode request) {
    if (request.get("partition-spec") instanceof ObjectNode spec && !spec.has("spec-id")) {
      spec.put("spec-id", 0);
    }
  }
}
