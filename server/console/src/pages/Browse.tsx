// Browse: pick a catalog, then walk its namespaces (a tree on the left) and look at a namespace,
// table or view (on the right). Routes: #/browse, #/browse/CAT, #/browse/CAT/namespace/NS,
// #/browse/CAT/table/NS/T, #/browse/CAT/view/NS/V (NS: levels joined by U+001F, as in the API).
import { useState } from "preact/hooks";
import { all, listCatalogs } from "../api";
import { Async, DataTable, go, href, useLoad } from "../ui";
import { links, nsLevels, nsName, usePrefix } from "./browse/data";
import { NamespaceTree } from "./browse/Tree";
import { NamespacePanel, TopLevelPanel } from "./browse/NamespacePanel";
import { TablePanel } from "./browse/TablePanel";
import { ViewPanel } from "./browse/ViewPanel";

export function Browse({ rest }: { rest: string[] }) {
  if (!rest[0]) {
    return <CatalogPicker />;
  }
  return <CatalogBrowser key={rest[0]} catalog={rest[0]} rest={rest.slice(1)} />;
}

function CatalogPicker() {
  const catalogs = useLoad(() => all(listCatalogs, "catalogs"), []);
  const [name, setName] = useState("");
  return (
    <section aria-labelledby="browse-title">
      <h1 id="browse-title">Browse</h1>
      <Async loaded={catalogs}>
        {(rows) =>
          rows.length === 0 ? (
            <p class="muted">No catalogs visible to you.</p>
          ) : (
            <DataTable
              caption="Catalogs to browse"
              rows={rows}
              columns={[
                { title: "Name", cell: (c) => <a href={links.catalog(c.name)}>{c.name}</a> },
                { title: "Storage", cell: (c) => c.storageConfigInfo?.storageType },
                {
                  title: "Base location",
                  cell: (c) => <code>{c.properties?.["default-base-location"]}</code>,
                },
              ]}
            />
          )
        }
      </Async>
      <form
        class="inline-form"
        aria-label="Open a catalog by name"
        onSubmit={(e) => {
          e.preventDefault();
          if (name.trim()) {
            go("browse", name.trim());
          }
        }}
      >
        <label for="browse-catalog-name">Catalog name</label>
        <input
          id="browse-catalog-name"
          value={name}
          onInput={(e) => setName((e.target as HTMLInputElement).value)}
        />
        <button type="submit">Open</button>
      </form>
    </section>
  );
}

/** What the route after the catalog selects. */
interface Selection {
  kind: "catalog" | "namespace" | "table" | "view";
  levels: string[];
  name: string;
}

function selectionOf(rest: string[]): Selection {
  const [kind, ns, name] = rest;
  if ((kind === "namespace" || kind === "table" || kind === "view") && ns) {
    return { kind, levels: nsLevels(ns), name: name ?? "" };
  }
  return { kind: "catalog", levels: [], name: "" };
}

function CatalogBrowser({ catalog, rest }: { catalog: string; rest: string[] }) {
  const prefix = usePrefix(catalog);
  const sel = selectionOf(rest);
  // Bumped after a create or drop: the tree and the panel load afresh.
  const [version, setVersion] = useState(0);
  const changed = () => setVersion((v) => v + 1);
  return (
    <section aria-labelledby="browse-title">
      <Crumbs catalog={catalog} sel={sel} />
      <h1 id="browse-title">{title(catalog, sel)}</h1>
      <Async loaded={prefix}>
        {(p: string) => (
          <div class="split">
            <NamespaceTree
              catalog={catalog}
              prefix={p}
              selected={sel.kind === "catalog" ? null : sel.levels}
              version={version}
            />
            <div class="browse-detail">
              <Detail catalog={catalog} prefix={p} sel={sel} version={version} changed={changed} />
            </div>
          </div>
        )}
      </Async>
    </section>
  );
}

function title(catalog: string, sel: Selection): string {
  switch (sel.kind) {
    case "namespace":
      return `Namespace ${nsName(sel.levels)}`;
    case "table":
      return `Table ${nsName([...sel.levels, sel.name])}`;
    case "view":
      return `View ${nsName([...sel.levels, sel.name])}`;
    default:
      return `Catalog ${catalog}`;
  }
}

function Crumbs({ catalog, sel }: { catalog: string; sel: Selection }) {
  const parts = sel.kind === "namespace" ? sel.levels.slice(0, -1) : sel.levels;
  return (
    <nav aria-label="Breadcrumb" class="crumbs">
      <a href={href("browse")}>Browse</a> / <a href={links.catalog(catalog)}>{catalog}</a> /{" "}
      {parts.map((_, i) => (
        <>
          <a href={links.namespace(catalog, parts.slice(0, i + 1))}>{parts[i]}</a> /{" "}
        </>
      ))}
    </nav>
  );
}

interface DetailProps {
  catalog: string;
  prefix: string;
  sel: Selection;
  version: number;
  changed: () => void;
}

function Detail({ catalog, prefix, sel, version, changed }: DetailProps) {
  const common = { catalog, prefix, version, changed };
  switch (sel.kind) {
    case "namespace":
      return <NamespacePanel {...common} levels={sel.levels} />;
    case "table":
      return <TablePanel {...common} levels={sel.levels} name={sel.name} />;
    case "view":
      return <ViewPanel prefix={prefix} levels={sel.levels} name={sel.name} />;
    default:
      return <TopLevelPanel {...common} />;
  }
}
