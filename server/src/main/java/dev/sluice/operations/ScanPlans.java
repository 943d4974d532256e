package dev.sluice.operations;

import static java.util.Objects.requireNonNull;

import com.github.benmanes.caffeine.cache.Cache;
import com.github.benmanes.caffeine.cache.Caffeine;
import com.github.benmanes.caffeine.cache.RemovalCause;
import dev.sluice.authz.Caller;
import dev.sluice.authz.Privilege;
import dev.sluice.catalog.ScanPlanner;
import dev.sluice.catalog.TableRestriction;
import dev.sluice.config.ScanPlanningSection;
import dev.sluice.vending.Delegation;
import dev.sluice.vending.VendingException;
import java.security.SecureRandom;
import java.util.Base64;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.CancellationException;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Future;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import org.apache.iceberg.Table;
import org.apache.iceberg.exceptions.BadRequestException;
import org.apache.iceberg.exceptions.ForbiddenException;
import org.apache.iceberg.exceptions.NoSuchPlanIdException;
import org.apache.iceberg.exceptions.NoSuchPlanTaskException;
import org.apache.iceberg.exceptions.ServiceUnavailableException;
import org.apache.iceberg.expressions.Expressions;
import org.apache.iceberg.rest.PlanStatus;
import org.apache.iceberg.rest.credentials.Credential;
import org.apache.iceberg.rest.requests.FetchScanTasksRequest;
import org.apache.iceberg.rest.requests.PlanTableScanRequest;
import org.apache.iceberg.rest.responses.ErrorResponse;
import org.apache.iceberg.rest.responses.FetchPlanningResultResponse;
import org.apache.iceberg.rest.responses.FetchScanTasksResponse;
import org.apache.iceberg.rest.responses.ImmutableLoadCredentialsResponse;
import org.apache.iceberg.rest.responses.LoadCredentialsResponse;
import org.apache.iceberg.rest.responses.PlanTableScanResponse;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Server-side scan planning (the spec's planTableScan, fetchPlanningResult, fetchScanTasks,
 * cancelPlanning) and the credentials of a plan. Each call needs TABLE_READ_DATA on the table, and
 * a plan is seen only by the principal that made it, on its own table (a 404 for anyone else: plan
 * ids are no oracle). Planning runs on a bounded pool, within {@link ScanPlanningSection}'s budget;
 * a small scan's request waits up to {@code syncWait} for its plan, a large one answers {@code
 * submitted} at once, and the client polls. A finished plan is audited with what it returned and
 * how narrowly its credentials cover it.
 */
public final class ScanPlans implements AutoCloseable {
  static final String PLAN_ACTION = "planTableScan";
  static final String FETCH_ACTION = "fetchPlanningResult";
  static final String TASKS_ACTION = "fetchScanTasks";
  static final String CANCEL_ACTION = "cancelPlanning";

  private static final Logger LOG = LoggerFactory.getLogger(ScanPlans.class);
  private static final SecureRandom RANDOM = new SecureRandom();

  private final CatalogAccess access;
  private final ReadRestrictions restrictions;
  private final PlanAccess credentials;
  private final ScanPlanningSection limits;
  private final ThreadPoolExecutor pool;
  private final Cache<String, ScanPlan> plans;
  private final AtomicLong heldFiles = new AtomicLong();

  public ScanPlans(
      CatalogAccess access,
      ReadRestrictions restrictions,
      PlanAccess credentials,
      ScanPlanningSection limits) {
    this.access = requireNonNull(access, "access");
    this.restrictions = requireNonNull(restrictions, "restrictions");
    this.credentials = requireNonNull(credentials, "credentials");
    this.limits = requireNonNull(limits, "limits");
    AtomicInteger threads = new AtomicInteger();
    // A queue as long as the plans one principal may hold: beyond it, a 503, not a backlog.
    this.pool =
        new ThreadPoolExecutor(
            limits.threads(),
            limits.threads(),
            0,
            TimeUnit.SECONDS,
            new ArrayBlockingQueue<>(limits.maxPlansPerPrincipal()),
            r -> {
              Thread t = new Thread(r, "sluice-scan-planning-" + threads.incrementAndGet());
              t.setDaemon(true);
              return t;
            });
    this.plans =
        Caffeine.newBuilder()
            .expireAfterAccess(limits.lifetime())
            .removalListener(
                (String id, ScanPlan plan, RemovalCause cause) -> {
                  if (plan != null) {
                    heldFiles.addAndGet(-plan.heldFiles());
                    plan.cancel();
                  }
                })
            .build();
  }

  /** {@code POST …/plan}. */
  public PlanTableScanResponse plan(
      TableCall call, PlanTableScanRequest request, String accessDelegation) {
    requireNonNull(request, "request");
    access.requireOnTable(
        call.caller(), PLAN_ACTION, call.catalog(), call.table(), Privilege.TABLE_READ_DATA);
    ScanPlan.Owner owner = ownerOf(call);
    plans.cleanUp();
    if (plans.estimatedSize() >= limits.maxPlans()) {
      throw new ServiceUnavailableException(
          "Cannot plan the scan now: the server holds %s plans (server.scanPlanning.maxPlans)",
          limits.maxPlans());
    }
    long mine =
        plans.asMap().values().stream()
            .filter(p -> p.owner().principalKey().equals(owner.principalKey()))
            .count();
    if (mine >= limits.maxPlansPerPrincipal()) {
      throw new ServiceUnavailableException(
          "Cannot plan the scan now: %s holds %s plans (server.scanPlanning.maxPlansPerPrincipal);"
              + " cancel finished ones",
          call.caller().principal(), mine);
    }
    Table table = call.catalog().loadTable(call.table());
    Optional<TableRestriction> restriction =
        restrictions.of(call.caller(), call.catalog().name(), call.table());
    ScanPlanner.Prepared prepared =
        restriction.isPresent()
            ? RestrictedScan.prepare(table, request, restriction.get())
            : ScanPlanner.prepare(table, request, Expressions.alwaysTrue());
    Delegation delegation = credentials.decide(call, accessDelegation);
    ScanPlan plan = new ScanPlan(newId(), owner, delegation, restriction, table.specs());
    Caller auditAs = withoutTrail(call.caller());
    long deadline = System.nanoTime() + limits.timeout().toNanos();
    ScanPlanner.Budget budget =
        new ScanPlanner.Budget(limits.maxFiles(), deadline, plan::isCancelled);
    CompletableFuture<Void> done = new CompletableFuture<>();
    Future<?> work;
    try {
      work =
          pool.submit(
              () -> {
                try {
                  run(call, auditAs, table, prepared, plan, budget);
                } finally {
                  done.complete(null);
                }
              });
    } catch (RejectedExecutionException e) {
      throw new ServiceUnavailableException(
          "Cannot plan the scan now: %s plans are waiting for a planning thread",
          limits.maxPlansPerPrincipal());
    }
    plan.started(work);
    plans.put(plan.id(), plan);
    try {
      if (ScanPlanner.filesIn(table, request) <= limits.asyncAboveFiles()) {
        done.get(limits.syncWait().toNanos(), TimeUnit.NANOSECONDS);
      }
    } catch (TimeoutException e) {
      // Still planning: the client polls.
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    } catch (ExecutionException e) {
      // run() records every outcome in the plan itself.
    }
    return planResponse(call, plan);
  }

  /** Plans on a worker thread: every outcome ends in the plan's status. */
  private void run(
      TableCall call,
      Caller auditAs,
      Table table,
      ScanPlanner.Prepared prepared,
      ScanPlan plan,
      ScanPlanner.Budget budget) {
    try {
      ScanPlanner.Planned planned = ScanPlanner.plan(table, prepared, budget);
      long held = heldFiles.addAndGet(planned.tasks().size());
      if (held > limits.maxHeldFiles()) {
        heldFiles.addAndGet(-planned.tasks().size());
        plan.failed(
            error(
                503,
                "ServiceUnavailableException",
                "the server holds too many planned files now (server.scanPlanning.maxHeldFiles):"
                    + " retry later"));
        return;
      }
      plan.completed(planned);
      // Vended now, so that a plan whose files cannot be vended for fails, and the audit event
      // says what its credentials cover; its answers read them from the vending cache.
      credentials.of(call, plan);
      credentials.audit(auditAs, call, plan, PLAN_ACTION);
    } catch (ForbiddenException e) {
      failAfterCompletion(plan, error(403, "ForbiddenException", e.getMessage()));
      credentials.refuse(auditAs, call, plan, PLAN_ACTION, e.getMessage());
    } catch (VendingException e) {
      failAfterCompletion(plan, error(503, "ServiceUnavailableException", e.getMessage()));
    } catch (CancellationException e) {
      plan.cancel();
    } catch (ScanPlanner.OverBudgetException e) {
      plan.failed(error(422, "UnprocessableEntityException", "Cannot plan: " + e.getMessage()));
    } catch (BadRequestException e) {
      plan.failed(error(400, "BadRequestException", e.getMessage()));
    } catch (RuntimeException e) {
      if (plan.isCancelled() || Thread.currentThread().isInterrupted()) {
        plan.cancel();
        return;
      }
      LOG.warn("Planning a scan of {}.{} failed", call.catalog().name(), call.table(), e);
      plan.failed(
          error(500, "RuntimeException", "Cannot plan the scan: " + e.getClass().getSimpleName()));
    }
  }

  /** A plan planned but not answerable: its files are no longer held. */
  private void failAfterCompletion(ScanPlan plan, ErrorResponse response) {
    heldFiles.addAndGet(-plan.heldFiles());
    plan.failed(response);
  }

  /** {@code GET …/plan/{plan}}. */
  public FetchPlanningResultResponse fetch(TableCall call, String planId) {
    access.requireOnTable(
        call.caller(), FETCH_ACTION, call.catalog(), call.table(), Privilege.TABLE_READ_DATA);
    ScanPlan plan = owned(call, planId);
    if (plan.isReleased()) {
      throw new NoSuchPlanIdException("Plan %s was cancelled", planId);
    }
    FetchPlanningResultResponse.Builder out =
        FetchPlanningResultResponse.builder()
            .withPlanStatus(plan.status())
            .withSpecsById(plan.specs());
    switch (plan.status()) {
      case COMPLETED -> {
        out.withFileScanTasks(plan.firstPage(limits.tasksPerPage()))
            .withPlanTasks(plan.planTasks(limits.tasksPerPage()))
            .withCredentials(credentials.of(call, plan));
      }
      case FAILED -> out.withErrorResponse(plan.error().orElseThrow());
      default -> {}
    }
    return out.build();
  }

  /** {@code POST …/tasks}. */
  public FetchScanTasksResponse tasks(TableCall call, FetchScanTasksRequest request) {
    access.requireOnTable(
        call.caller(), TASKS_ACTION, call.catalog(), call.table(), Privilege.TABLE_READ_DATA);
    String planTask = request.planTask();
    int slash = planTask == null ? -1 : planTask.lastIndexOf('/');
    ScanPlan plan = slash < 0 ? null : ownedOrNull(call, planTask.substring(0, slash));
    if (plan == null) {
      throw new NoSuchPlanTaskException("No plan task %s", planTask);
    }
    return FetchScanTasksResponse.builder()
        .withFileScanTasks(plan.tasksOf(planTask, limits.tasksPerPage()))
        .withSpecsById(plan.specs())
        .build();
  }

  /** {@code DELETE …/plan/{plan}}: stops and forgets it. */
  public void cancel(TableCall call, String planId) {
    access.requireOnTable(
        call.caller(), CANCEL_ACTION, call.catalog(), call.table(), Privilege.TABLE_READ_DATA);
    ScanPlan plan = plans.getIfPresent(planId == null ? "" : planId);
    if (plan == null || !plan.owner().equals(ownerOf(call))) {
      throw new NoSuchPlanIdException("No plan %s for table %s", planId, call.table());
    }
    if (plan.status() == PlanStatus.COMPLETED || plan.isReleased()) {
      // Its tasks go; its access stays until it expires: readers may still be at work.
      heldFiles.addAndGet(-plan.release());
    } else {
      plans.invalidate(plan.id());
    }
  }

  /** {@code GET …/credentials?planId=}: the plan's credentials again, vended now. */
  public LoadCredentialsResponse credentials(TableCall call, String planId) {
    access.requireOnTable(
        call.caller(),
        TableCredentials.REFRESH_ACTION,
        call.catalog(),
        call.table(),
        Privilege.TABLE_READ_DATA);
    ScanPlan plan = owned(call, planId);
    if (!plan.grantsAccess()) {
      throw new BadRequestException("Plan %s has no credentials: it is %s", planId, plan.status());
    }
    List<Credential> vended = credentials.of(call, plan);
    return ImmutableLoadCredentialsResponse.builder().credentials(vended).build();
  }

  /** The files of the caller's completed plan {@code planId} on this table (404 otherwise). */
  Set<String> filesOf(TableCall call, String planId) {
    ScanPlan plan = owned(call, planId);
    if (!plan.grantsAccess()) {
      throw new NoSuchPlanIdException("No completed plan %s for table %s", planId, call.table());
    }
    return plan.planned().files();
  }

  private PlanTableScanResponse planResponse(TableCall call, ScanPlan plan) {
    PlanTableScanResponse.Builder out =
        PlanTableScanResponse.builder()
            .withPlanId(plan.id())
            .withPlanStatus(plan.status())
            .withSpecsById(plan.specs());
    switch (plan.status()) {
      case COMPLETED -> {
        out.withFileScanTasks(plan.firstPage(limits.tasksPerPage()))
            .withPlanTasks(plan.planTasks(limits.tasksPerPage()))
            .withCredentials(credentials.of(call, plan));
      }
      case FAILED -> {
        out.withErrorResponse(plan.error().orElseThrow());
        plans.invalidate(plan.id());
      }
      default -> {}
    }
    return out.build();
  }

  /** The caller's plan on this table, or a 404 (also for another caller's or table's plan). */
  private ScanPlan owned(TableCall call, String planId) {
    ScanPlan plan = ownedOrNull(call, planId);
    if (plan == null) {
      throw new NoSuchPlanIdException("No plan %s for table %s", planId, call.table());
    }
    return plan;
  }

  /**
   * The caller's plan on this table, or null; a 403 when the caller's read restriction changed
   * since it was made: its files and credentials were decided under the old one.
   */
  private ScanPlan ownedOrNull(TableCall call, String planId) {
    ScanPlan plan = planId == null ? null : plans.getIfPresent(planId);
    if (plan == null || !plan.owner().equals(ownerOf(call))) {
      return null;
    }
    if (!fingerprint(plan.restriction())
        .equals(fingerprint(restrictions.of(call.caller(), call.catalog().name(), call.table())))) {
      throw new ForbiddenException(
          "Plan %s was made under other read restrictions than %s has now: plan the scan again",
          planId, call.caller().principal());
    }
    return plan;
  }

  /** A restriction as compared across reads (Iceberg's expressions have no value equality). */
  private static String fingerprint(Optional<TableRestriction> restriction) {
    return restriction
        .map(r -> r.rowFilter() + "|" + r.hiddenFieldIds() + "|" + r.masks())
        .orElse("none");
  }

  /** A plan's owner: the principal (its identity, so a recreated name is another owner). */
  private static ScanPlan.Owner ownerOf(TableCall call) {
    Caller caller = call.caller();
    String key = caller.identity() != null ? caller.identity() : "name:" + caller.principal();
    return new ScanPlan.Owner(key, call.catalog().name(), call.table());
  }

  /** The caller as decisions made after its request ended are recorded: at once, on its own. */
  private static Caller withoutTrail(Caller caller) {
    return new Caller(
        caller.principal(),
        caller.activeRoles(),
        caller.requestId(),
        caller.identity(),
        null,
        caller.actor());
  }

  private static ErrorResponse error(int code, String type, String message) {
    return ErrorResponse.builder().responseCode(code).withType(type).withMessage(message).build();
  }

  private static String newId() {
    byte[] bytes = new byte[18];
    RANDOM.nextBytes(bytes);
    return "plan-" + Base64.getUrlEncoder().withoutPadding().encodeToString(bytes);
  }

  @Override
  public void close() {
    pool.shutdownNow();
    plans.invalidateAll();
  }
}
