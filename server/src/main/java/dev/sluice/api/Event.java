package dev.sluice.api;

import com.fasterxml.jackson.annotation.JsonInclude;
import java.util.List;

/**
 * One audit event, as the events API and the audit stream show it. Parts unknown for an event
 * (stored before the field was recorded, or not applicable) are absent. {@code actor} is the engine
 * principal that made the call for {@code principal} with a delegated token (PRINCIPAL_ACT_AS);
 * absent when the principal called itself.
 */
public record Event(
    long id,
    long timestamp,
    String principal,
    @JsonInclude(JsonInclude.Include.NON_NULL) String principalIdentity,
    @JsonInclude(JsonInclude.Include.NON_NULL) String actor,
    List<String> activatedRoles,
    String action,
    String catalog,
    String securable,
    String decision,
    String requestId,
    int count,
    long lastTimestamp,
    @JsonInclude(JsonInclude.Include.NON_NULL) String detail,
    @JsonInclude(JsonInclude.Include.NON_NULL) Integer status,
    @JsonInclude(JsonInclude.Include.NON_NULL) String errorType,
    @JsonInclude(JsonInclude.Include.NON_NULL) String clientAddress,
    @JsonInclude(JsonInclude.Include.NON_NULL) String userAgent,
    @JsonInclude(JsonInclude.Include.NON_NULL) String traceId) {
  public Event {
    activatedRoles = Fields.copy(activatedRoles);
  }
}
