package dev.sluice.http;

import static java.util.Objects.requireNonNull;

import dev.sluice.operations.TableSigning;
import dev.sluice.vending.SignedRequest;
import dev.sluice.vending.StorageRequest;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * {@code POST /v1/{prefix}/namespaces/{namespace}/tables/{table}/sign}, the spec's signRequest: the
 * body's shape is checked here (one JSON object, each field once: region, uri, method, headers;
 * body and properties optional; a 400), the catalog resolved for the caller (the usual 403 without
 * standing), and the rest decided by {@link TableSigning}.
 *
 * <p>No signature may be cached by the client ({@code Cache-Control: no-store}).
 */
final class SignRoute {
  static final String PATH = "/v1/{prefix}/namespaces/{namespace}/tables/{table}/sign";

  /** A staged table's signing endpoint: a staged-table grant in the last segment. */
  static final String STAGED_PATH = PATH + "/{grant}";

  /** A scan plan's signing endpoint: signs reads of the plan's files only. */
  static final String PLAN_PATH =
      "/v1/{prefix}/namespaces/{namespace}/tables/{table}/plan/{plan-id}/sign";

  private final IcebergRequests requests;
  private final TableSigning signing;

  SignRoute(IcebergRequests requests, TableSigning signing) {
    this.requests = requireNonNull(requests, "requests");
    this.signing = requireNonNull(signing, "signing");
  }

  Reply handle(Exchange x) {
    return handle(x, null, null);
  }

  Reply handleStaged(Exchange x) {
    return handle(x, x.path("grant"), null);
  }

  Reply handlePlan(Exchange x) {
    return handle(x, null, x.path("plan-id"));
  }

  private Reply handle(Exchange x, String grant, String planId) {
    StorageRequest request = SignRequestReader.read(x.body());
    SignedRequest signed =
        signing.sign(
            new TableSigning.SignTableRequest(requests.tableCall(x), grant, planId, request));
    Map<String, Object> body = new LinkedHashMap<>();
    body.put("uri", signed.uri().toString());
    body.put("headers", signed.headers());
    // Never cached: Iceberg's signer client keeps cacheable signatures in one JVM-wide cache keyed
    // by method, region and URI, not by principal, so a cached read would reach other principals.
    return Reply.okPlain(body).withHeader("Cache-Control", "no-store");
  }
}
