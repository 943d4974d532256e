package dev.sluice.operations;

import static java.util.Objects.requireNonNull;

import dev.sluice.catalog.ScanPlanner;
import dev.sluice.catalog.TableRestriction;
import dev.sluice.vending.Delegation;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.Future;
import org.apache.iceberg.FileScanTask;
import org.apache.iceberg.PartitionSpec;
import org.apache.iceberg.catalog.TableIdentifier;
import org.apache.iceberg.exceptions.NoSuchPlanTaskException;
import org.apache.iceberg.rest.PlanStatus;
import org.apache.iceberg.rest.credentials.Credential;
import org.apache.iceberg.rest.responses.ErrorResponse;

/**
 * One scan plan of one caller on one table, from submission to cancellation or expiry. Its tasks
 * are served in pages: the first inline with the plan, the others as plan tasks named {@code <plan
 * id>/<page>}, which only its owner can fetch. Thread-safe: planned on a worker, read by requests.
 */
final class ScanPlan {
  /** Who may use a plan, and for what: only its owner, on its own table. */
  record Owner(String principalKey, String catalog, TableIdentifier table) {
    Owner {
      requireNonNull(principalKey, "principalKey");
      requireNonNull(catalog, "catalog");
      requireNonNull(table, "table");
    }
  }

  private final String id;
  private final Owner owner;
  private final Delegation delegation;
  private final Optional<TableRestriction> restriction;
  private final Map<Integer, PartitionSpec> specs;
  private volatile PlanStatus status = PlanStatus.SUBMITTED;
  private volatile ScanPlanner.Planned planned;
  private volatile ErrorResponse error;
  private volatile Future<?> work;
  private volatile boolean cancelled;
  private volatile boolean released;
  private volatile String covered = "none";
  private volatile boolean storageConfines;
  private volatile List<Credential> credentials;
  private volatile long credentialsKeptUntilMs;

  /** {@code restriction}: the caller's read restriction the plan was made under, if any. */
  ScanPlan(
      String id,
      Owner owner,
      Delegation delegation,
      Optional<TableRestriction> restriction,
      Map<Integer, PartitionSpec> specs) {
    this.id = requireNonNull(id, "id");
    this.specs = Map.copyOf(specs);
    this.owner = requireNonNull(owner, "owner");
    this.delegation = requireNonNull(delegation, "delegation");
    this.restriction = requireNonNull(restriction, "restriction");
  }

  String id() {
    return id;
  }

  Owner owner() {
    return owner;
  }

  Delegation delegation() {
    return delegation;
  }

  /** True when the caller's read restriction filters rows (AND-ed into the plan). */
  boolean rowFiltered() {
    return restriction.map(TableRestriction::hasRowFilter).orElse(false);
  }

  /** The read restriction the plan was made under: a plan serves no other. */
  Optional<TableRestriction> restriction() {
    return restriction;
  }

  /** What the plan's storage access covers, for its audit event. */
  String covered() {
    return covered;
  }

  /** Whether the store itself keeps a reader of the plan's access to the plan's partitions. */
  boolean storageConfines() {
    return storageConfines;
  }

  void covered(String description, boolean confines) {
    this.covered = requireNonNull(description, "description");
    this.storageConfines = confines;
  }

  /** The credentials vended for it, while they have more than half their life left. */
  Optional<List<Credential>> keptCredentials(long nowMs) {
    List<Credential> kept = credentials;
    return kept != null && nowMs < credentialsKeptUntilMs ? Optional.of(kept) : Optional.empty();
  }

  /** Keeps {@code vended}, vended at {@code nowMs}, until half their life is over. */
  void keep(List<Credential> vended, long nowMs, long expiresAtMs) {
    this.credentialsKeptUntilMs = nowMs + Math.max(0, (expiresAtMs - nowMs) / 2);
    this.credentials = List.copyOf(vended);
  }

  /** The table's partition specs when it was planned: every answer about it names them. */
  Map<Integer, PartitionSpec> specs() {
    return specs;
  }

  PlanStatus status() {
    return status;
  }

  Optional<ErrorResponse> error() {
    return Optional.ofNullable(error);
  }

  /** The finished plan; only once {@link #status()} is completed. */
  ScanPlanner.Planned planned() {
    return requireNonNull(planned, "planned");
  }

  /** How many files the plan holds in memory (0 until complete). */
  int heldFiles() {
    ScanPlanner.Planned p = planned;
    return p == null ? 0 : p.tasks().size();
  }

  void started(Future<?> future) {
    this.work = future;
    if (cancelled) {
      future.cancel(true);
    }
  }

  void completed(ScanPlanner.Planned result) {
    this.planned = result;
    this.status = PlanStatus.COMPLETED;
  }

  void failed(ErrorResponse response) {
    this.planned = null;
    this.error = response;
    this.status = PlanStatus.FAILED;
  }

  /** Stops its planning (if running) and forgets it. */
  synchronized void cancel() {
    cancelled = true;
    status = PlanStatus.CANCELLED;
    Future<?> f = work;
    if (f != null) {
      f.cancel(true);
    }
    planned = null;
  }

  boolean isCancelled() {
    return cancelled;
  }

  /**
   * A completed plan cancelled by its client: its tasks are released (fetching them is a 404 from
   * now on), but its files stay known, so its credentials still refresh and its signer still signs
   * until the plan expires. Iceberg's client cancels a plan once it has its tasks, before the
   * engine's readers use the plan's credentials. Returns the number of tasks released.
   */
  synchronized int release() {
    ScanPlanner.Planned done = planned;
    if (status != PlanStatus.COMPLETED || done == null) {
      return 0;
    }
    planned =
        new ScanPlanner.Planned(List.of(), done.specs(), done.files(), done.rowFilterByPartition());
    released = true;
    status = PlanStatus.CANCELLED;
    return done.tasks().size();
  }

  /** True when the plan's files may still be read through it: completed, or released by cancel. */
  boolean grantsAccess() {
    return status == PlanStatus.COMPLETED || released;
  }

  /** True when its client cancelled it after it completed. */
  boolean isReleased() {
    return released;
  }

  /** The pages after the first, as plan-task names. */
  List<String> planTasks(int tasksPerPage) {
    int pages = pages(tasksPerPage);
    return java.util.stream.IntStream.range(1, pages).mapToObj(p -> id + "/" + p).toList();
  }

  /** The first page, returned with the plan itself. */
  List<FileScanTask> firstPage(int tasksPerPage) {
    return page(0, tasksPerPage);
  }

  /** The tasks of {@code planTask} (a name from {@link #planTasks}); 404 for any other. */
  List<FileScanTask> tasksOf(String planTask, int tasksPerPage) {
    String prefix = id + "/";
    int page;
    try {
      page =
          planTask.startsWith(prefix) ? Integer.parseInt(planTask.substring(prefix.length())) : -1;
    } catch (NumberFormatException e) {
      page = -1;
    }
    if (page < 1 || page >= pages(tasksPerPage) || status != PlanStatus.COMPLETED) {
      throw new NoSuchPlanTaskException("No plan task %s", planTask);
    }
    return page(page, tasksPerPage);
  }

  private int pages(int tasksPerPage) {
    int n = heldFiles();
    return Math.max(1, (n + tasksPerPage - 1) / tasksPerPage);
  }

  private List<FileScanTask> page(int page, int tasksPerPage) {
    List<FileScanTask> tasks = planned().tasks();
    int from = page * tasksPerPage;
    return tasks.subList(Math.min(from, tasks.size()), Math.min(from + tasksPerPage, tasks.size()));
  }
}
