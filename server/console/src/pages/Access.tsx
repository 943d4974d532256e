// Access: principals, principal roles, catalog roles with their grants as a matrix, and a
// principal's effective privileges explained. Each tab calls the management API and shows its
// answer. Tabs the caller cannot use (the server's `actions` say so) are left out.
import { catalogsAllowing } from "../actions";
import { useSession } from "../session";
import { href, useLoad } from "../ui";
import { Principals } from "./access/Principals";
import { PrincipalRoles } from "./access/PrincipalRoles";
import { CatalogRoles } from "./access/CatalogRoles";
import { Effective } from "./access/Effective";

const TABS = [
  { path: "principals", title: "Principals" },
  { path: "principal-roles", title: "Principal roles" },
  { path: "catalog-roles", title: "Catalog roles" },
  { path: "effective", title: "Effective privileges" },
];

export function Access({ rest }: { rest: string[] }) {
  const session = useSession();
  // The catalogs whose access the caller manages: the catalog-role tabs are for those only.
  const managed = useLoad(
    () => (session.actions.known ? catalogsAllowing("listCatalogRoles") : Promise.resolve(null)),
    [],
  );
  const managesSome = managed.data === null || (managed.data?.length ?? 0) > 0;
  const shown = (path: string) => {
    switch (path) {
      case "principal-roles":
        return session.actions.has("listPrincipalRoles");
      case "catalog-roles":
        return managesSome;
      case "effective":
        return managesSome || session.actions.has("explainPrivileges");
      default:
        return true;
    }
  };
  const tabs = TABS.filter((t) => shown(t.path));
  // While the managed catalogs load, a link to a catalog-role tab still opens it.
  const tab =
    tabs.some((t) => t.path === rest[0]) || (managed.loading && TABS.some((t) => t.path === rest[0]))
      ? rest[0]
      : "principals";
  return (
    <section aria-labelledby="access-title">
      <h1 id="access-title">Access</h1>
      <nav aria-label="Access sections" class="tabs">
        {tabs.map((t) => (
          <a href={href("access", t.path)} aria-current={t.path === tab ? "page" : undefined}>
            {t.title}
          </a>
        ))}
      </nav>
      {tab === "principals" ? <Principals /> : null}
      {tab === "principal-roles" ? <PrincipalRoles /> : null}
      {tab === "catalog-roles" ? (
        <CatalogRoles catalog={rest[1]} managed={managed.data ?? undefined} />
      ) : null}
      {tab === "effective" ? <Effective /> : null}
    </section>
  );
}
