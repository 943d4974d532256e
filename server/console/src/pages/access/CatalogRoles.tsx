// Catalog roles of one catalog: list, create, delete; and for one role, the principal roles that
// hold it (Holders) and its grants as a matrix (GrantMatrix). Needs CATALOG_MANAGE_ACCESS on the catalog (or service admin).
import { useState } from "preact/hooks";
import { useCatalogActions } from "../../actions";
import {
  all,
  createCatalogRole,
  deleteCatalogRole,
  listCatalogNames,
  listCatalogRoles,
  type PageQuery,
} from "../../api";
import { Async, DataTable, Time, go, useLoad } from "../../ui";
import { ActionButton, CreateForm } from "./common";
import { GrantMatrix } from "./GrantMatrix";
import { Holders } from "./Holders";

export function CatalogRoles({
  catalog,
  managed,
}: {
  catalog: string | undefined;
  /** The catalogs whose access the caller manages, when the server said; else all it sees. */
  managed?: string[];
}) {
  const catalogs = useLoad(async () => managed ?? (await listCatalogNames()), [managed?.join("\n")]);
  return (
    <section aria-labelledby="catalog-roles-title">
      <h2 id="catalog-roles-title">Catalog roles</h2>
      <Async loaded={catalogs}>
        {(rows: string[]) => (
          <div class="field">
            <label for="catalog-roles-catalog">Catalog</label>
            <select
              id="catalog-roles-catalog"
              value={catalog ?? ""}
              onChange={(e) => go("access", "catalog-roles", (e.target as HTMLSelectElement).value)}
            >
              <option value="">(choose a catalog)</option>
              {rows.map((c) => (
                <option value={c}>{c}</option>
              ))}
            </select>
          </div>
        )}
      </Async>
      {catalog ? <RolesOf catalog={catalog} key={catalog} /> : null}
    </section>
  );
}

function RolesOf({ catalog }: { catalog: string }) {
  const roles = useLoad(
    () => all((page: PageQuery) => listCatalogRoles(catalog, page), "roles"),
    [catalog],
  );
  const actions = useCatalogActions(catalog);
  const [open, setOpen] = useState<string | null>(null);
  const may = (op: string) => actions.data?.has(op) ?? false;
  return (
    <>
      <Async loaded={roles}>
        {(rows) => (
          <>
            {may("createCatalogRole") ? (
              <CreateForm
                title={`New catalog role in ${catalog}`}
                label="Catalog role name"
                submitLabel="Create catalog role"
                create={async (name) => {
                  await createCatalogRole(catalog, {
                    catalogRole: { name },
                  });
                  roles.reload();
                }}
              />
            ) : null}
            <DataTable
              caption={`Catalog roles of ${catalog}`}
              rows={rows}
              empty="none yet."
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
                        {open === r.name ? `Close grants of ${r.name}` : `Grants of ${r.name}`}
                      </button>
                      {may("deleteCatalogRole") ? (
                        <ActionButton
                          label={`Delete ${r.name}`}
                          danger
                          confirmText={`Delete catalog role ${r.name} of ${catalog} with its grants?`}
                          action={async () => {
                            await deleteCatalogRole(catalog, r.name ?? "");
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
          </>
        )}
      </Async>
      {open ? (
        <>
          <Holders catalog={catalog} role={open} key={`holders ${catalog}/${open}`} />
          <GrantMatrix catalog={catalog} role={open} key={`${catalog}/${open}`} />
        </>
      ) : null}
    </>
  );
}
