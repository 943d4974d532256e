package dev.sluice.config;

import static dev.sluice.config.Bounds.between;
import static dev.sluice.config.Bounds.orDefault;

import java.time.Duration;

/**
 * {@code server.scanPlanning}: server-side scan planning's budget. A plan runs on one of {@code
 * threads}. A scan of a snapshot with more than {@code asyncAboveFiles} files answers {@code
 * submitted} at once (the client polls); a smaller one waits up to {@code syncWait} for its plan,
 * then answers {@code submitted} if it is not done. A plan that lists more than {@code maxFiles}
 * files or runs longer than {@code timeout} fails cleanly; all plans together hold at most {@code
 * maxHeldFiles} files (about half a kilobyte of heap each) and {@code maxPlans} plans, each kept
 * for {@code lifetime} after its last use (its credentials refresh through it); one principal holds
 * at most {@code maxPlansPerPrincipal} of them. A plan beyond these is refused (503), never an
 * older one dropped.
 */
public record ScanPlanningSection(
    Integer threads,
    Integer asyncAboveFiles,
    Duration syncWait,
    Duration timeout,
    Integer maxFiles,
    Integer tasksPerPage,
    Integer maxHeldFiles,
    Integer maxPlans,
    Integer maxPlansPerPrincipal,
    Duration lifetime) {
  public static final ScanPlanningSection DEFAULT =
      new ScanPlanningSection(null, null, null, null, null, null, null, null, null, null);

  public ScanPlanningSection {
    threads = orDefault(threads, 2);
    between("server.scanPlanning.threads", threads, 1, 64);
    asyncAboveFiles = orDefault(asyncAboveFiles, 10_000);
    between("server.scanPlanning.asyncAboveFiles", asyncAboveFiles, 0, Integer.MAX_VALUE);
    syncWait = orDefault(syncWait, Duration.ofSeconds(2));
    between("server.scanPlanning.syncWait", syncWait, Duration.ZERO, Duration.ofSeconds(60));
    timeout = orDefault(timeout, Duration.ofMinutes(2));
    between("server.scanPlanning.timeout", timeout, Duration.ofSeconds(1), Duration.ofHours(1));
    maxFiles = orDefault(maxFiles, 200_000);
    between("server.scanPlanning.maxFiles", maxFiles, 1, 10_000_000);
    tasksPerPage = orDefault(tasksPerPage, 1_000);
    between("server.scanPlanning.tasksPerPage", tasksPerPage, 1, 100_000);
    maxHeldFiles = orDefault(maxHeldFiles, 1_000_000);
    between("server.scanPlanning.maxHeldFiles", maxHeldFiles, maxFiles, 100_000_000);
    maxPlans = orDefault(maxPlans, 1_000);
    between("server.scanPlanning.maxPlans", maxPlans, 1, 1_000_000);
    maxPlansPerPrincipal = orDefault(maxPlansPerPrincipal, 50);
    between("server.scanPlanning.maxPlansPerPrincipal", maxPlansPerPrincipal, 1, maxPlans);
    lifetime = orDefault(lifetime, Duration.ofHours(1));
    between("server.scanPlanning.lifetime", lifetime, Duration.ofMinutes(1), Duration.ofDays(1));
  }
}
