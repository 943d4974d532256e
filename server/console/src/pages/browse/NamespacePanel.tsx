// A namespace: its properties, child namespaces, tables and views, each loaded (and refused) on
// its own, so a 403 on one part leaves the others visible.
import { Async, DataTable, Properties, useLoad } from "../../ui";
import { links, listNamespaces, listTables, listViews, loadNamespace, nsKey, nsName } from "./data";

export function TopLevelPanel({ catalog, prefix }: { catalog: string; prefix: string }) {
  const namespaces = useLoad(() => listNamespaces(prefix, []), [prefix]);
  return (
    <section aria-labelledby="top-namespaces">
      <h2 id="top-namespaces">Top-level namespaces</h2>
      <Async loaded={namespaces}>
        {(list: string[][]) => (
          <NamespaceList catalog={catalog} list={list} caption="Top-level namespaces" />
        )}
      </Async>
    </section>
  );
}

function NamespaceList({
  catalog,
  list,
  caption,
  empty = "No namespaces.",
}: {
  catalog: string;
  list: string[][];
  caption: string;
  empty?: string;
}) {
  if (list.length === 0) {
    return <p class="muted">{empty}</p>;
  }
  return (
    <DataTable
      caption={caption}
      rows={list}
      columns={[
        {
          title: "Namespace",
          cell: (levels) => <a href={links.namespace(catalog, levels)}>{nsName(levels)}</a>,
        },
      ]}
    />
  );
}

interface Props {
  catalog: string;
  prefix: string;
  levels: string[];
}

export function NamespacePanel({ catalog, prefix, levels }: Props) {
  const key = nsKey(levels);
  const name = nsName(levels);
  const namespace = useLoad(() => loadNamespace(prefix, levels), [prefix, key]);
  const children = useLoad(() => listNamespaces(prefix, levels), [prefix, key]);
  const tables = useLoad(() => listTables(prefix, levels), [prefix, key]);
  const views = useLoad(() => listViews(prefix, levels), [prefix, key]);
  return (
    <>
      <section aria-labelledby="ns-properties">
        <h2 id="ns-properties">Properties</h2>
        <Async loaded={namespace}>{(ns) => <Properties values={ns.properties} />}</Async>
      </section>
      <section aria-labelledby="ns-tables">
        <h2 id="ns-tables">Tables</h2>
        <Async loaded={tables}>
          {(list: string[]) => (
            <Names
              list={list}
              caption={`Tables in ${name}`}
              empty="No tables."
              link={(t) => links.table(catalog, levels, t)}
            />
          )}
        </Async>
      </section>
      <section aria-labelledby="ns-views">
        <h2 id="ns-views">Views</h2>
        <Async loaded={views}>
          {(list: string[]) => (
            <Names
              list={list}
              caption={`Views in ${name}`}
              empty="No views."
              link={(v) => links.view(catalog, levels, v)}
            />
          )}
        </Async>
      </section>
      <section aria-labelledby="ns-children">
        <h2 id="ns-children">Child namespaces</h2>
        <Async loaded={children}>
          {(list: string[][]) => (
            <NamespaceList
              catalog={catalog}
              list={list}
              caption={`Namespaces in ${name}`}
              empty="No child namespaces."
            />
          )}
        </Async>
      </section>
    </>
  );
}

function Names({
  list,
  caption,
  empty,
  link,
}: {
  list: string[];
  caption: string;
  empty: string;
  link: (name: string) => string;
}) {
  if (list.length === 0) {
    return <p class="muted">{empty}</p>;
  }
  return (
    <DataTable
      caption={caption}
      rows={list}
      columns={[{ title: "Name", cell: (n) => <a href={link(n)}>{n}</a> }]}
    />
  );
}
