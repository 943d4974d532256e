// Principals: the service admin lists, creates (the secret shown once), rotates, deletes and
// assigns principal roles; anyone else sees its own principal and roles.
import { useEffect, useRef, useState } from "preact/hooks";
import {
  all,
  assignPrincipalRole,
  createPrincipal,
  deletePrincipal,
  getPrincipal,
  listPrincipalRoles,
  listPrincipalRolesOfPrincipal,
  listPrincipals,
  revokePrincipalRole,
  rotateCredentials,
  type PageQuery,
  type Schemas,
} from "../../api";
import { undeletablePrincipal, useSession } from "../../session";
import { Async, DataTable, ErrorBox, asApiError, formatTime, Time, useLoad } from "../../ui";
import { ActionButton, CreateForm } from "./common";

/** Credentials as the API answered them once; shown until the user leaves the tab. */
function SecretBox({ credentials, what, onDone }: {
  credentials: Schemas["Credentials"] | undefined;
  what: string;
  onDone: () => void;
}) {
  // Moved to (and scrolled into view) when it appears: the button that caused it may be far below.
  const box = useRef<HTMLDivElement>(null);
  useEffect(() => box.current?.focus(), [credentials]);
  return (
    <div class="secret" role="status" aria-labelledby="secret-title" tabIndex={-1} ref={box}>
      <h3 id="secret-title">{what}</h3>
      <p>
        <strong>Copy it now, it will not be shown again.</strong>
      </p>
      <dl class="properties">
        <dt>Client id</dt>
        <dd>
          <code>{credentials?.clientId}</code>
        </dd>
        <dt>Client secret</dt>
        <dd>
          <code>{credentials?.clientSecret}</code>
        </dd>
      </dl>
      <button type="button" class="secondary" onClick={onDone}>
        I have copied it
      </button>
    </div>
  );
}

export function Principals() {
  const session = useSession();
  // Kept in this component only: leaving the tab unmounts it and the secret is gone.
  const [shown, setShown] = useState<Secret | null>(null);
  if (!session.actions.hasOr("listPrincipals", session.serviceAdmin)) {
    return <Principal name={session.principal} own onSecret={setShown} shown={shown} />;
  }
  return <PrincipalList shown={shown} onSecret={setShown} />;
}

interface Secret {
  what: string;
  credentials: Schemas["Credentials"] | undefined;
}

interface SecretProps {
  shown: Secret | null;
  onSecret: (s: Secret | null) => void;
}

function PrincipalList({ shown, onSecret }: SecretProps) {
  const session = useSession();
  const principals = useLoad(() => all(listPrincipals, "principals"), []);
  const [open, setOpen] = useState<string | null>(null);
  return (
    <section aria-labelledby="principals-title">
      <h2 id="principals-title">Principals</h2>
      {shown ? (
        <SecretBox credentials={shown.credentials} what={shown.what} onDone={() => onSecret(null)} />
      ) : null}
      {session.actions.has("createPrincipal") ? (
        <CreateForm
          title="New principal"
          label="Principal name"
          submitLabel="Create principal"
          create={async (name) => {
            const answer = await createPrincipal({ principal: { name } });
            onSecret({ what: `Credentials of new principal ${name}`, credentials: answer.credentials });
            principals.reload();
          }}
        />
      ) : null}
      <Async loaded={principals}>
        {(rows) => (
          <DataTable
            caption="Principals"
            rows={rows}
            columns={[
              { title: "Name", cell: (p) => p.name },
              { title: "Client id", cell: (p) => <code>{p.clientId}</code> },
              { title: "Created", cell: (p) => <Time millis={p.createTimestamp} /> },
              {
                title: "Actions",
                cell: (p) => (
                  <div class="buttons">
                    <button
                      type="button"
                      class="secondary"
                      aria-expanded={open === p.name}
                      onClick={() => setOpen(open === p.name ? null : (p.name ?? null))}
                    >
                      {open === p.name ? `Close ${p.name}` : `Manage ${p.name}`}
                    </button>
                    {/* The server never deletes root, and deleting oneself would lock one out. */}
                    {session.actions.has("deletePrincipal") && !undeletablePrincipal(session, p.name ?? "") ? (
                      <ActionButton
                        label={`Delete ${p.name}`}
                        danger
                        confirmText={`Delete principal ${p.name}? Its tokens stop working at once.`}
                        action={async () => {
                          await deletePrincipal(p.name ?? "");
                          principals.reload();
                        }}
                      />
                    ) : null}
                  </div>
                ),
              },
            ]}
          />
        )}
      </Async>
      {open ? <Principal name={open} own={false} shown={null} onSecret={onSecret} /> : null}
    </section>
  );
}

/** One principal: its details, credential rotation and its principal roles. */
function Principal({ name, own, shown, onSecret }: { name: string; own: boolean } & SecretProps) {
  const session = useSession();
  const principal = useLoad(() => getPrincipal(name), [name]);
  const roles = useLoad(
    () => all((page: PageQuery) => listPrincipalRolesOfPrincipal(name, page), "roles"),
    [name],
  );
  return (
    <section aria-labelledby="principal-title">
      <h2 id="principal-title">{own ? `Your principal: ${name}` : `Principal ${name}`}</h2>
      {own && shown ? (
        <SecretBox credentials={shown.credentials} what={shown.what} onDone={() => onSecret(null)} />
      ) : null}
      <Async loaded={principal}>
        {(p) => (
          <dl class="properties">
            <dt>Client id</dt>
            <dd>
              <code>{p.clientId}</code>
            </dd>
            <dt>Created</dt>
            <dd>{formatTime(p.createTimestamp)}</dd>
          </dl>
        )}
      </Async>
      <div class="buttons">
        <ActionButton
          label={`Rotate credentials of ${name}`}
          confirmText={`Rotate the credentials of ${name}? Its current secret and tokens stop working.`}
          action={async () => {
            const answer = await rotateCredentials(name);
            onSecret({
              what: own
                ? `Your new credentials (this session ends at its next request: sign in again with them)`
                : `New credentials of ${name}`,
              credentials: answer.credentials,
            });
          }}
        />
      </div>
      <Async loaded={roles}>
        {(rows) => (
          <DataTable
            caption={`Principal roles of ${name}`}
            rows={rows}
            empty="none."
            columns={[
              { title: "Role", cell: (r) => r.name },
              ...(session.actions.hasOr("revokePrincipalRole", session.serviceAdmin) ? [{
                title: "Actions",
                cell: (r: Schemas["Role"]) =>
                  (
                    <ActionButton
                      label={`Unassign ${r.name}`}
                      danger
                      confirmText={`Take principal role ${r.name} from ${name}?`}
                      action={async () => {
                        await revokePrincipalRole(name, r.name ?? "");
                        roles.reload();
                      }}
                    />
                  ),
              }] : []),
            ]}
          />
        )}
      </Async>
      {session.actions.hasOr("assignPrincipalRole", session.serviceAdmin) ? <AssignRole principal={name} onDone={roles.reload} /> : null}
    </section>
  );
}

function AssignRole({ principal, onDone }: { principal: string; onDone: () => void }) {
  const available = useLoad(() => all(listPrincipalRoles, "roles"), []);
  const [role, setRole] = useState("");
  const [error, setError] = useState<ReturnType<typeof asApiError> | undefined>();
  return (
    <form
      aria-label={`Assign a principal role to ${principal}`}
      class="inline-form"
      onSubmit={async (e) => {
        e.preventDefault();
        setError(undefined);
        try {
          await assignPrincipalRole(principal, {
            principalRole: { name: role },
          });
          onDone();
        } catch (err) {
          setError(asApiError(err));
        }
      }}
    >
      <Async loaded={available}>
        {(rows) => (
          <div class="field">
            <label for="assign-role">Principal role to assign</label>
            <select id="assign-role" value={role} onChange={(e) => setRole((e.target as HTMLSelectElement).value)}>
              <option value="">(choose)</option>
              {rows.map((r) => (
                <option value={r.name}>{r.name}</option>
              ))}
            </select>
          </div>
        )}
      </Async>
      <button type="submit" disabled={!role}>
        Assign role
      </button>
      <ErrorBox error={error} />
    </form>
  );
}
