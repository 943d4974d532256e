package dev.sluice.store;

/**
 * The HTTP request an audit event was decided in, as the trail records it: where it came from (the
 * client's address, through {@code server.trustedProxies}, and its {@code User-Agent}) and how it
 * ended (the answer's status and, for an error, the Iceberg error type), and the OpenTelemetry
 * trace it was part of ({@code tracing}), which finds it among the traces. Each part is null where
 * it is unknown: no such header, an event recorded outside a request, or one stored before these
 * were.
 */
public record AuditedRequest(
    String clientAddress, String userAgent, Integer status, String errorType, String traceId) {
  public static final AuditedRequest NONE = new AuditedRequest(null, null, null, null, null);

  /** Where the request came from, and its trace; its outcome is not known yet. */
  public static AuditedRequest from(String clientAddress, String userAgent, String traceId) {
    return new AuditedRequest(clientAddress, userAgent, null, null, traceId);
  }

  /** This request without its trace id. */
  public AuditedRequest withoutTrace() {
    return traceId == null
        ? this
        : new AuditedRequest(clientAddress, userAgent, status, errorType, null);
  }

  /** This request, answered with {@code status} ({@code errorType} null for a success). */
  public AuditedRequest answered(int status, String errorType) {
    return new AuditedRequest(clientAddress, userAgent, status, errorType, traceId);
  }
}
