package dev.sluice.authz;

import dev.sluice.audit.RequestAudit;
import dev.sluice.auth.AuthenticatedPrincipal;

/** Works out a request's {@link Caller} from its token: roles held now, narrowed by the token. */
public interface Callers {
  /** The caller, its decisions recorded at once under {@code requestId}. */
  Caller caller(AuthenticatedPrincipal principal, String requestId);

  /** The caller, its decisions held in {@code trail} until the request is answered. */
  Caller caller(AuthenticatedPrincipal principal, RequestAudit trail);
}
