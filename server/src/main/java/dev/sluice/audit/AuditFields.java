package dev.sluice.audit;

import dev.sluice.store.AuditEvent;
import dev.sluice.store.AuditedRequest;
import java.util.List;
import java.util.Map;

/**
 * Makes an event storable whatever a request put in it: every text field fits its column of {@code
 * audit_events} (a longer value keeps a prefix and ends with {@code …[truncated N chars]}), and
 * characters a database may refuse (NUL and other control characters, unpaired surrogates) become
 * U+FFFD. So no input can make the database refuse an event, and an event's size in the queue is
 * bounded.
 */
final class AuditFields {
  // The column sizes of audit_events in V2__rbac_and_audit.sql, in characters: the one place
  // they are known outside SQL (AuditFieldsTest compares them with the live schema).
  static final int PRINCIPAL = 256;
  static final int ROLES = 4096;
  static final int ACTION = 64;
  static final int CATALOG = 256;
  static final int SECURABLE = 4096;
  static final int REQUEST_ID = 128;
  static final int DETAIL = 16384; // V5__audit_event_detail.sql
  static final int IDENTITY = 600; // V9__principal_ids.sql
  // V11__audit_event_outcome.sql
  static final int CLIENT_ADDRESS = 64;
  static final int USER_AGENT = 512;
  static final int ERROR_TYPE = 128;
  static final int TRACE_ID = 32;
  static final int ACTOR = 256; // V13__delegations.sql

  /** Column name → size, for the schema check. */
  static final Map<String, Integer> COLUMNS =
      Map.ofEntries(
          Map.entry("principal", PRINCIPAL),
          Map.entry("roles", ROLES),
          Map.entry("action", ACTION),
          Map.entry("catalog_name", CATALOG),
          Map.entry("securable", SECURABLE),
          Map.entry("request_id", REQUEST_ID),
          Map.entry("detail", DETAIL),
          Map.entry("principal_identity", IDENTITY),
          Map.entry("client_address", CLIENT_ADDRESS),
          Map.entry("user_agent", USER_AGENT),
          Map.entry("error_type", ERROR_TYPE),
          Map.entry("trace_id", TRACE_ID),
          Map.entry("actor", ACTOR));

  /** What a refused event keeps of each text field: printable ASCII, short. */
  private static final int SAFE_LENGTH = 64;

  private static final char REPLACEMENT = '\uFFFD';

  private AuditFields() {}

  /** {@code e} with every field storable; {@code e} itself when it already is (the common case). */
  static AuditEvent fit(AuditEvent e) {
    String principal = fit(e.principal(), PRINCIPAL);
    List<String> roles = fitRoles(e.roles());
    String action = fit(e.action(), ACTION);
    String catalog = e.catalog() == null ? null : fit(e.catalog(), CATALOG);
    String securable = fit(e.securable(), SECURABLE);
    String requestId = fit(e.requestId(), REQUEST_ID);
    String detail = e.detail() == null ? null : fit(e.detail(), DETAIL);
    String identity = e.principalIdentity() == null ? null : fit(e.principalIdentity(), IDENTITY);
    AuditedRequest request = fit(e.request());
    String actor = e.actor() == null ? null : fit(e.actor(), ACTOR);
    if (principal == e.principal()
        && roles == e.roles()
        && action == e.action()
        && catalog == e.catalog()
        && securable == e.securable()
        && requestId == e.requestId()
        && detail == e.detail()
        && identity == e.principalIdentity()
        && request == e.request()
        && actor == e.actor()) {
      return e;
    }
    return new AuditEvent(
        e.id(),
        e.time(),
        principal,
        roles,
        action,
        catalog,
        securable,
        e.allowed(),
        requestId,
        e.count(),
        e.lastTime(),
        detail,
        identity,
        request,
        actor);
  }

  /** {@code r} with its text fields storable; {@code r} itself when they already are. */
  private static AuditedRequest fit(AuditedRequest r) {
    String address = r.clientAddress() == null ? null : fit(r.clientAddress(), CLIENT_ADDRESS);
    String agent = r.userAgent() == null ? null : fit(r.userAgent(), USER_AGENT);
    String error = r.errorType() == null ? null : fit(r.errorType(), ERROR_TYPE);
    String trace = r.traceId() == null ? null : fit(r.traceId(), TRACE_ID);
    if (address == r.clientAddress()
        && agent == r.userAgent()
        && error == r.errorType()
        && trace == r.traceId()) {
      return r;
    }
    return new AuditedRequest(address, agent, r.status(), error, trace);
  }

  /**
   * The form in which an event the database refused anyway is stored: its decision, times and
   * count, its names reduced to short printable ASCII, and {@code reason} in the securable.
   */
  static AuditEvent safeForm(AuditEvent e, String reason) {
    return new AuditEvent(
        e.id(),
        e.time(),
        ascii(e.principal(), SAFE_LENGTH),
        List.of(),
        ascii(e.action(), SAFE_LENGTH),
        e.catalog() == null ? null : ascii(e.catalog(), SAFE_LENGTH),
        ascii("[stored in safe form: " + reason + "] " + e.securable(), 4 * SAFE_LENGTH),
        e.allowed(),
        ascii(e.requestId(), SAFE_LENGTH),
        e.count(),
        e.lastTime(),
        null,
        e.principalIdentity() == null ? null : ascii(e.principalIdentity(), 4 * SAFE_LENGTH),
        new AuditedRequest(
            e.request().clientAddress() == null
                ? null
                : ascii(e.request().clientAddress(), SAFE_LENGTH),
            e.request().userAgent() == null ? null : ascii(e.request().userAgent(), SAFE_LENGTH),
            e.request().status(),
            e.request().errorType() == null ? null : ascii(e.request().errorType(), SAFE_LENGTH),
            e.request().traceId() == null ? null : ascii(e.request().traceId(), TRACE_ID)),
        e.actor() == null ? null : ascii(e.actor(), SAFE_LENGTH));
  }

  /** {@code value} storable in {@code limit} characters; the same instance when it already is. */
  static String fit(String value, int limit) {
    String clean = clean(value);
    if (clean.length() <= limit) {
      return clean;
    }
    // The marker for the whole length has the most digits: with it the result always fits.
    int keep = limit - marker(clean.length()).length();
    if (keep > 0 && Character.isHighSurrogate(clean.charAt(keep - 1))) {
      keep--; // never split a surrogate pair
    }
    return clean.substring(0, keep) + marker(clean.length() - keep);
  }

  static String marker(int truncated) {
    return "…[truncated " + truncated + " chars]";
  }

  /** Roles are stored joined by commas in one column: fit the joined text, keep the list shape. */
  private static List<String> fitRoles(List<String> roles) {
    String joined = String.join(",", roles);
    String fitted = fit(joined, ROLES);
    if (fitted == joined) {
      return roles;
    }
    return fitted.isEmpty() ? List.of() : List.of(fitted.split(",", -1));
  }

  /** Control characters and unpaired surrogates replaced; the same instance when there are none. */
  private static String clean(String value) {
    StringBuilder out = null;
    for (int i = 0; i < value.length(); i++) {
      char c = value.charAt(i);
      boolean pair =
          Character.isHighSurrogate(c)
              && i + 1 < value.length()
              && Character.isLowSurrogate(value.charAt(i + 1));
      boolean bad = Character.isISOControl(c) || (Character.isSurrogate(c) && !pair);
      if (bad && out == null) {
        out = new StringBuilder(value.length()).append(value, 0, i);
      }
      if (out != null) {
        out.append(bad ? REPLACEMENT : c);
        if (pair) {
          out.append(value.charAt(i + 1));
        }
      }
      if (pair) {
        i++;
      }
    }
    return out == null ? value : out.toString();
  }

  /** Printable ASCII only, at most {@code limit} characters, truncation marked. */
  private static String ascii(String value, int limit) {
    int n = Math.min(value.length(), limit);
    StringBuilder out = new StringBuilder(n);
    for (int i = 0; i < n; i++) {
      char c = value.charAt(i);
      out.append(c >= 0x20 && c < 0x7F ? c : '?');
    }
    if (value.length() > limit) {
      String marker = "...[truncated]";
      out.setLength(limit - marker.length());
      out.append(marker);
    }
    return out.toString();
  }
}
