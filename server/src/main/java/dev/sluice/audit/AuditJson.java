package dev.sluice.audit;

import dev.sluice.store.AuditEvent;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * An audit event's fields as the management API ({@code GET /api/management/v1/events}) and the
 * audit stream both show them: one shape, named once. Unknown parts (events stored before a field
 * was recorded) are left out.
 */
public final class AuditJson {
  private AuditJson() {}

  public static Map<String, Object> fields(AuditEvent e) {
    Map<String, Object> out = new LinkedHashMap<>();
    out.put("id", e.id());
    out.put("timestamp", e.time());
    out.put("principal", e.principal());
    putIfKnown(out, "principalIdentity", e.principalIdentity());
    out.put("activatedRoles", e.roles());
    out.put("action", e.action());
    out.put("catalog", e.catalog());
    out.put("securable", e.securable());
    out.put("decision", e.allowed() ? "ALLOW" : "DENY");
    out.put("requestId", e.requestId());
    out.put("count", e.count());
    out.put("lastTimestamp", e.lastTime());
    putIfKnown(out, "detail", e.detail());
    putIfKnown(out, "status", e.request().status());
    putIfKnown(out, "errorType", e.request().errorType());
    putIfKnown(out, "clientAddress", e.request().clientAddress());
    putIfKnown(out, "userAgent", e.request().userAgent());
    putIfKnown(out, "traceId", e.request().traceId());
    return out;
  }

  private static void putIfKnown(Map<String, Object> out, String key, Object value) {
    if (value != null) {
      out.put(key, value);
    }
  }
}
