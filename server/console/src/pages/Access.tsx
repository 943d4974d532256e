// Access: principals, principal roles, catalog roles with their grants as a matrix, and a
// principal's effective privileges explained. Each tab calls the management API and shows its
// answer; a 403 is "Not permitted" for that part only.
import { href } from "../ui";
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
  const tab = TABS.some((t) => t.path === rest[0]) ? rest[0] : "principals";
  return (
    <section aria-labelledby="access-title">
      <h1 id="access-title">Access</h1>
      <nav aria-label="Access sections" class="tabs">
        {TABS.map((t) => (
          <a href={href("access", t.path)} aria-current={t.path === tab ? "page" : undefined}>
            {t.title}
          </a>
        ))}
      </nav>
      {tab === "principals" ? <Principals /> : null}
      {tab === "principal-roles" ? <PrincipalRoles /> : null}
      {tab === "catalog-roles" ? <CatalogRoles catalog={rest[1]} /> : null}
      {tab === "effective" ? <Effective /> : null}
    </section>
  );
}
