// The principal roles that hold one catalog role, with grant and revoke: what a catalog's access
// manager needs to hand its roles out (listing every principal role is the service admin's alone,
// so the role is named here rather than picked from a list).
import {
  all,
  grantCatalogRole,
  listPrincipalRolesWithCatalogRole,
  revokeCatalogRole,
  type PageQuery,
} from "../../api";
import { Async, DataTable, useLoad } from "../../ui";
import { ActionButton, CreateForm } from "./common";

export function Holders({ catalog, role }: { catalog: string; role: string }) {
  const holders = useLoad(
    () =>
      all(
        (page: PageQuery) => listPrincipalRolesWithCatalogRole(catalog, role, page),
        "roles",
      ),
    [catalog, role],
  );
  return (
    <section aria-labelledby="holders-title">
      <h3 id="holders-title">
        Principal roles holding {role} in {catalog}
      </h3>
      <CreateForm
        title={`Grant ${role} to a principal role`}
        label="Principal role to grant it to"
        submitLabel="Grant to principal role"
        create={async (principalRole) => {
          await grantCatalogRole(principalRole, catalog, {
            catalogRole: { name: role },
          });
          holders.reload();
        }}
      />
      <Async loaded={holders}>
        {(rows) => (
          <DataTable
            caption={`Principal roles holding ${role}`}
            rows={rows}
            empty="none yet."
            columns={[
              { title: "Principal role", cell: (r) => r.name },
              {
                title: "Actions",
                cell: (r) => (
                  <ActionButton
                    label={`Revoke ${role} from ${r.name}`}
                    action={async () => {
                      await revokeCatalogRole(r.name ?? "", catalog, role);
                      holders.reload();
                    }}
                  />
                ),
              },
            ]}
          />
        )}
      </Async>
    </section>
  );
}
