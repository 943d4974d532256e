// Who is signed in, and what they may do beyond one catalog. Nothing is decided here: the server
// answers both (the caller's principal roles, and `GET /actions`); pages use them only to leave
// out what the caller cannot use. The API still refuses whatever it refuses.
import { createContext } from "preact";
import { useContext } from "preact/hooks";
import { Actions, all, listPrincipalRolesOfPrincipal, loadServiceActions, type Identity, type PageQuery } from "./api";

export interface Session extends Identity {
  /** Holds the service_admin principal role (from the API's own answer). */
  serviceAdmin: boolean;
  roles: string[];
  /** Service-level operations the caller may take (unknown on a server without the endpoint). */
  actions: Actions;
}

export async function loadSession(identity: Identity): Promise<Session> {
  const [roleList, actions] = await Promise.all([
    all((page: PageQuery) => listPrincipalRolesOfPrincipal(identity.principal, page), "roles"),
    loadServiceActions(),
  ]);
  const roles = roleList.map((r) => String(r.name));
  return { ...identity, roles, serviceAdmin: roles.includes("service_admin"), actions };
}

export const SessionContext = createContext<Session | null>(null);

export function useSession(): Session {
  const session = useContext(SessionContext);
  if (!session) {
    throw new Error("no session");
  }
  return session;
}

/** The principal the console must never offer to delete: root, and the caller itself. */
export function undeletablePrincipal(session: Session, name: string): boolean {
  return name === "root" || name === session.principal;
}

/** The principal role the server never deletes. */
export const SERVICE_ADMIN_ROLE = "service_admin";
