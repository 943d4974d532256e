package dev.sluice.bench.load;

import java.io.IOException;

/**
 * One client's unit of work, timed as a whole: usually one request; for a commit, everything a
 * writer does until its append lands (a conflict costs a refresh and a retry).
 */
@FunctionalInterface
public interface Operation {
  /**
   * Does the work once and returns how many conflicts (HTTP 409) it had to retry; throws if it
   * failed.
   */
  int run() throws IOException;
}
