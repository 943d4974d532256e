package dev.sluice.audit;

import com.fasterxml.jackson.core.type.TypeReference;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.sluice.api.Event;
import dev.sluice.store.AuditEvent;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * An audit event's fields as the management API ({@code GET /api/management/v1/events}) and the
 * audit stream both show them: one shape, named once. Unknown parts (events stored before a field
 * was recorded) are left out.
 */
public final class AuditJson {
  private static final ObjectMapper JSON = new ObjectMapper();

  private AuditJson() {}

  /** The event as the management API's contract types it. */
  public static Event event(AuditEvent e) {
    return new Event(
        e.id(),
        e.time(),
        e.principal(),
        e.principalIdentity(),
        e.actor(),
        e.roles(),
        e.action(),
        e.catalog(),
        e.securable(),
        e.allowed() ? "ALLOW" : "DENY",
        e.requestId(),
        e.count(),
        e.lastTime(),
        e.detail(),
        e.request().status(),
        e.request().errorType(),
        e.request().clientAddress(),
        e.request().userAgent(),
        e.request().traceId());
  }

  /** The same fields, in the same order, as a map (the audit stream's log fields). */
  public static Map<String, Object> fields(AuditEvent e) {
    return JSON.convertValue(event(e), new TypeReference<LinkedHashMap<String, Object>>() {});
  }
}
