package dev.sluice.http;

import static java.util.Objects.requireNonNull;

import dev.sluice.operations.ScanPlans;
import org.apache.iceberg.exceptions.BadRequestException;
import org.apache.iceberg.rest.requests.FetchScanTasksRequest;
import org.apache.iceberg.rest.requests.PlanTableScanRequest;

/**
 * Server-side scan planning as HTTP: {@code POST …/plan}, {@code GET} and {@code DELETE …/plan/{
 * plan-id}}, {@code POST …/tasks}. Parses, calls {@link ScanPlans}, answers; the client's {@code
 * X-Iceberg-Access-Delegation} on a plan asks for its storage credentials.
 */
final class PlanRoutes {
  private final IcebergRequests requests;
  private final ScanPlans plans;

  PlanRoutes(IcebergRequests requests, ScanPlans plans) {
    this.requests = requireNonNull(requests, "requests");
    this.plans = requireNonNull(plans, "plans");
  }

  Reply plan(Exchange x) {
    var call = requests.tableCall(x);
    if (!x.jsonBody().isObject()) {
      throw new BadRequestException("Invalid scan plan request: not a JSON object");
    }
    PlanTableScanRequest request = x.icebergBody(PlanTableScanRequest.class);
    return Reply.ok(plans.plan(call, request, TableRoutes.accessDelegation(x)));
  }

  Reply fetch(Exchange x) {
    return Reply.ok(plans.fetch(requests.tableCall(x), x.path("plan-id")));
  }

  Reply cancel(Exchange x) {
    plans.cancel(requests.tableCall(x), x.path("plan-id"));
    return Reply.NO_CONTENT;
  }

  Reply tasks(Exchange x) {
    var call = requests.tableCall(x);
    return Reply.ok(plans.tasks(call, x.icebergBody(FetchScanTasksRequest.class)));
  }
}
