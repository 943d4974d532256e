package dev.sluice.audit;

import static java.util.Objects.requireNonNull;

import dev.sluice.store.AuditEvent;
import dev.sluice.store.AuditedRequest;
import java.util.ArrayList;
import java.util.List;

/**
 * The audit events of one HTTP request, held until its answer is known, so that each is stored with
 * the request's outcome (status and error type) and origin (client address, user agent): a delete
 * that was allowed but then failed with 400 reads as such, not as a bare ALLOW. The server calls
 * {@link #answered} once, when it writes the answer; events recorded after that, or beyond {@value
 * #MAX_HELD} in one request, go to the log at once with the outcome unknown. Thread-safe, though a
 * request's events are usually recorded by one thread.
 */
public final class RequestAudit {
  /** Events one request holds at most; a request decides one to a few. */
  static final int MAX_HELD = 256;

  private final AuditLog log;
  private final String requestId;
  private final AuditedRequest origin;
  private List<AuditEvent> held = new ArrayList<>(2);
  private AuditedRequest outcome;

  RequestAudit(AuditLog log, String requestId, AuditedRequest origin) {
    this.log = requireNonNull(log, "log");
    this.requestId = requireNonNull(requestId, "requestId");
    this.origin = requireNonNull(origin, "origin");
  }

  public String requestId() {
    return requestId;
  }

  /** Holds {@code event} until the request is answered (or passes it on, see the class comment). */
  public void record(AuditEvent event) {
    AuditEvent in;
    synchronized (this) {
      if (outcome == null && held.size() < MAX_HELD) {
        held.add(event);
        return;
      }
      in = event.within(outcome == null ? origin : outcome);
    }
    log.record(in);
  }

  /**
   * The request was answered with {@code status} ({@code errorType} the error's type, null for a
   * success): its events go to the log with that outcome. Later calls change nothing.
   */
  public void answered(int status, String errorType) {
    List<AuditEvent> events;
    AuditedRequest done;
    synchronized (this) {
      if (outcome != null) {
        return;
      }
      outcome = origin.answered(status, errorType);
      done = outcome;
      events = held;
      held = List.of();
    }
    for (AuditEvent e : events) {
      log.record(e.within(done));
    }
  }
}
