// Principal roles: list, create, delete (service admin); for one role, the catalog roles it holds
// in each catalog, with assign and revoke (CATALOG_MANAGE_ACCESS on that catalog).
import { useState } from "preact/hooks";
import {
  all,
  createPrincipalRole,
  deletePrincipalRole,
  grantCatalogRole,
  listCatalogRoles,
  listCatalogRolesOfPrincipalRole,
  listCatalogs,
  listPrincipalRoles,
  revokeCatalogRole,
  type PageQuery,
} from "../../api";
import { SERVICE_ADMIN_ROLE, useSession } from "../../session";
import { Async, DataTable, ErrorBox, asApiError, Time, useLoad } from "../../ui";
import { ActionButton, CreateForm } from "./common";

export function PrincipalRoles() {
  const session = useSession();
  const roles = useLoad(() => all(listPrincipalRoles, "roles"), []);
  const [open, setOpen] = useState<string | null>(null);
  return (
    <section aria-labelledby="principal-roles-title">
      <h2 id="principal-roles-title">Principal roles</h2>
      {session.actions.hasOr("createPrincipalRole", session.serviceAdmin) ? (
        <CreateForm
          title="New principal role"
          label="Principal role name"
          submitLabel="Create principal role"
          create={async (name) => {
            await createPrincipalRole({ principalRole: { name } });
            roles.reload();
          }}
        />
      ) : null}
      <Async loaded={roles}>
        {(rows) => (
          <DataTable
            caption="Principal roles"
            rows={rows}
            columns={[
              { title: "Name", cell: (r) => r.name },
              { title: "Created", cell: (r) => <Time millis={r.createTimestamp} /> },
              {
                title: "Actions",
                cell: (r) => (
                  <div class="buttons">
                    <button
                      type="button"
                      class="secondary"
                      aria-expanded={open === r.name}
                      onClick={() => setOpen(open === r.name ? null : (r.name ?? null))}
                    >
                      {open === r.name ? `Close ${r.name}` : `Catalog roles of ${r.name}`}
                    </button>
                    {/* The server refuses to delete service_admin. */}
                    {session.actions.has("deletePrincipalRole") && r.name !== SERVICE_ADMIN_ROLE ? (
                      <ActionButton
                        label={`Delete ${r.name}`}
                        danger
                        confirmText={`Delete principal role ${r.name}?`}
                        action={async () => {
                          await deletePrincipalRole(r.name ?? "");
                          if (open === r.name) {
                            setOpen(null);
                          }
                          roles.reload();
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
      {open ? <HeldCatalogRoles role={open} /> : null}
    </section>
  );
}

/** Per catalog the caller can see: the catalog roles `role` holds there. */
function HeldCatalogRoles({ role }: { role: string }) {
  const catalogs = useLoad(() => all(listCatalogs, "catalogs"), []);
  return (
    <section aria-labelledby="held-title">
      <h3 id="held-title">Catalog roles held by {role}</h3>
      <Async loaded={catalogs}>
        {(rows) =>
          rows.length === 0 ? (
            <p class="muted">No catalogs visible to you.</p>
          ) : (
            <>
              {rows.map((c) => (
                <InCatalog role={role} catalog={String(c.name)} />
              ))}
            </>
          )
        }
      </Async>
    </section>
  );
}

function InCatalog({ role, catalog }: { role: string; catalog: string }) {
  const held = useLoad(
    () => all((page: PageQuery) => listCatalogRolesOfPrincipalRole(role, catalog, page), "roles"),
    [role, catalog],
  );
  const available = useLoad(
    () => all((page: PageQuery) => listCatalogRoles(catalog, page), "roles"),
    [catalog],
  );
  const [pick, setPick] = useState("");
  const [error, setError] = useState<ReturnType<typeof asApiError> | undefined>();
  const id = `assign-${role}-${catalog}`.replace(/\W+/g, "-");
  return (
    <div class="catalog-block">
      <h4>In catalog {catalog}</h4>
      <Async loaded={held}>
        {(rows) => (
          <DataTable
            caption={`Catalog roles of ${role} in ${catalog}`}
            rows={rows}
            empty="none."
            columns={[
              { title: "Catalog role", cell: (r) => r.name },
              {
                title: "Actions",
                cell: (r) => (
                  <ActionButton
                    label={`Revoke ${r.name} in ${catalog}`}
                    danger
                    confirmText={`Revoke catalog role ${r.name} of ${catalog} from ${role}?`}
                    action={async () => {
                      await revokeCatalogRole(role, catalog, r.name ?? "");
                      held.reload();
                    }}
                  />
                ),
              },
            ]}
          />
        )}
      </Async>
      {held.error ? null : (
        <Async loaded={available}>
          {(rows) => (
            <form
              class="inline-form"
              aria-label={`Assign a catalog role of ${catalog} to ${role}`}
              onSubmit={async (e) => {
                e.preventDefault();
                setError(undefined);
                try {
                  await grantCatalogRole(role, catalog, {
                    catalogRole: { name: pick },
                  });
                  held.reload();
                } catch (err) {
                  setError(asApiError(err));
                }
              }}
            >
              <div class="field">
                <label for={id}>Catalog role of {catalog} to assign</label>
                <select id={id} value={pick} onChange={(e) => setPick((e.target as HTMLSelectElement).value)}>
                  <option value="">(choose)</option>
                  {rows.map((r) => (
                    <option value={r.name}>{r.name}</option>
                  ))}
                </select>
              </div>
              <button type="submit" disabled={!pick}>
                Assign catalog role
              </button>
              <ErrorBox error={error} />
            </form>
          )}
        </Async>
      )}
    </div>
  );
}
