package dev.sluice.store;

import static java.util.Objects.requireNonNull;

import java.util.List;

/**
 * An authorization decision, or {@code count} identical allowed ones between {@code time} and
 * {@code lastTime} (see {@code AuditLog}); {@code requestId} is the first one's. Carries names and
 * decisions only, never a secret; {@code detail}, usually null, says what an allowed change changed
 * (secrets redacted). {@code principalIdentity} tells apart principals that shared a name (a
 * principal's id, never reused, or an external identity); null where no token stood for the caller,
 * and on events from before it was recorded. {@code request} is the HTTP request it was decided in
 * ({@link AuditedRequest#NONE} when unknown). {@code actor} is the engine principal that acted for
 * {@code principal} with a delegated token; null when the principal called itself.
 */
public record AuditEvent(
    long id,
    long time,
    String principal,
    List<String> roles,
    String action,
    String catalog,
    String securable,
    boolean allowed,
    String requestId,
    int count,
    long lastTime,
    String detail,
    String principalIdentity,
    AuditedRequest request,
    String actor) {
  public AuditEvent {
    requireNonNull(principal, "principal");
    roles = List.copyOf(roles);
    requireNonNull(action, "action");
    requireNonNull(securable, "securable");
    requireNonNull(requestId, "requestId");
    request = request == null ? AuditedRequest.NONE : request;
    if (count < 1 || lastTime < time) {
      throw new IllegalArgumentException(
          "Invalid audit event: count " + count + ", time " + time + ".." + lastTime);
    }
  }

  public AuditEvent(
      long id,
      long time,
      String principal,
      List<String> roles,
      String action,
      String catalog,
      String securable,
      boolean allowed,
      String requestId,
      int count,
      long lastTime,
      String detail,
      String principalIdentity,
      AuditedRequest request) {
    this(
        id,
        time,
        principal,
        roles,
        action,
        catalog,
        securable,
        allowed,
        requestId,
        count,
        lastTime,
        detail,
        principalIdentity,
        request,
        null);
  }

  public AuditEvent(
      long id,
      long time,
      String principal,
      List<String> roles,
      String action,
      String catalog,
      String securable,
      boolean allowed,
      String requestId,
      int count,
      long lastTime) {
    this(
        id, time, principal, roles, action, catalog, securable, allowed, requestId, count, lastTime,
        null, null, null);
  }

  /** One decision. */
  public AuditEvent(
      long id,
      long time,
      String principal,
      List<String> roles,
      String action,
      String catalog,
      String securable,
      boolean allowed,
      String requestId) {
    this(id, time, principal, roles, action, catalog, securable, allowed, requestId, 1, time);
  }

  /** This event with {@code later} folded in. */
  public AuditEvent plus(AuditEvent later) {
    return new AuditEvent(
        id,
        time,
        principal,
        roles,
        action,
        catalog,
        securable,
        allowed,
        requestId,
        count + later.count,
        Math.max(lastTime, later.lastTime),
        detail,
        principalIdentity,
        request,
        actor);
  }

  /** This event with what it changed, e.g. the values before and after. */
  public AuditEvent withDetail(String text) {
    return new AuditEvent(
        id,
        time,
        principal,
        roles,
        action,
        catalog,
        securable,
        allowed,
        requestId,
        count,
        lastTime,
        text,
        principalIdentity,
        request,
        actor);
  }

  /** This event with who the principal was ({@link #principalIdentity}). */
  public AuditEvent withIdentity(String identity) {
    return new AuditEvent(
        id, time, principal, roles, action, catalog, securable, allowed, requestId, count, lastTime,
        detail, identity, request, actor);
  }

  /** This event with the engine principal that acted for the principal ({@link #actor}). */
  public AuditEvent withActor(String actingFor) {
    return new AuditEvent(
        id,
        time,
        principal,
        roles,
        action,
        catalog,
        securable,
        allowed,
        requestId,
        count,
        lastTime,
        detail,
        principalIdentity,
        request,
        actingFor);
  }

  /** This event as decided in {@code in} (where it came from, how it ended). */
  public AuditEvent within(AuditedRequest in) {
    return new AuditEvent(
        id,
        time,
        principal,
        roles,
        action,
        catalog,
        securable,
        allowed,
        requestId,
        count,
        lastTime,
        detail,
        principalIdentity,
        in,
        actor);
  }
}
