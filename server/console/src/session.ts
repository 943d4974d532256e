// Who is signed in. What they may do is never decided here: every page asks the API and shows
// its answer (a 403 is shown as "not permitted"); this only picks what to offer first.
import { createContext } from "preact";
import { useContext } from "preact/hooks";
import { all, management, seg, type Identity } from "./api";

export interface Session extends Identity {
  /** Holds the service_admin principal role (from the API's own answer). */
  serviceAdmin: boolean;
  roles: string[];
}

export async function loadSession(identity: Identity): Promise<Session> {
  const roles = (
    await all(management.get, `/principals/${seg(identity.principal)}/principal-roles`, "roles")
  ).map((r) => String(r.name));
  return { ...identity, roles, serviceAdmin: roles.includes("service_admin") };
}

export const SessionContext = createContext<Session | null>(null);

export function useSession(): Session {
  const session = useContext(SessionContext);
  if (!session) {
    throw new Error("no session");
  }
  return session;
}
