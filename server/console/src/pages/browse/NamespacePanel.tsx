// A namespace: its properties, child namespaces, tables and views, each loaded (and refused) on
// its own, so a 403 on one part leaves the others visible. A part the server's actions say the
// caller may not see is left out instead; create and drop are offered when the actions allow.
import { useCatalogActions } from "../../actions";
import { Async, DataTable, Properties, go, useLoad } from "../../ui";
import { CreateNamespaceForm, DropNamespaceButton } from "./Actions";
import { links, listNamespaces, listTables, listViews, loadNamespace, nsKey, nsName } from "./data";

interface PanelProps {
  catalog: string;
  prefix: string;
  /** Changes after a create or drop, to load afresh. */
  version: number;
  changed: () => void;
}

export function TopLevelPanel({ catalog, prefix, version, changed }: PanelProps) {
  const actions = useCatalogActions(catalog);
  const namespaces = useLoad(() => listNamespaces(prefix, []), [prefix, version]);
  return (
    <section aria-labelledby="top-namespaces">
      <h2 id="top-namespaces">Top-level namespaces</h2>
      <Async loaded={namespaces}>
        {(list: string[][]) => (
          <NamespaceList catalog={catalog} list={list} caption="Top-level namespaces" />
        )}
      </Async>
      {actions.data?.has("createNamespace") ? (
        <div class="content-actions">
          <CreateNamespaceForm
            prefix={prefix}
            parent={[]}
            onCreated={() => {
              changed();
            }}
          />
        </div>
      ) : null}
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

export function NamespacePanel({
  catalog,
  prefix,
  levels,
  version,
  changed,
}: PanelProps & { levels: string[] }) {
  const key = nsKey(levels);
  const name = nsName(levels);
  const actions = useCatalogActions(catalog, { namespace: levels });
  // Shown when allowed (or while the server has not answered, as before the actions existed).
  const shows = (op: string) => actions.data?.has(op) ?? true;
  const may = (op: string) => actions.data?.has(op) ?? false;
  const namespace = useLoad(() => loadNamespace(prefix, levels), [prefix, key, version]);
  const children = useLoad(() => listNamespaces(prefix, levels), [prefix, key, version]);
  const tables = useLoad(() => listTables(prefix, levels), [prefix, key, version]);
  const views = useLoad(() => listViews(prefix, levels), [prefix, key, version]);
  return (
    <>
      {shows("loadNamespaceMetadata") ? (
        <section aria-labelledby="ns-properties">
          <h2 id="ns-properties">Properties</h2>
          <Async loaded={namespace}>{(ns) => <Properties values={ns.properties} />}</Async>
        </section>
      ) : null}
      {shows("listTables") ? (
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
      ) : null}
      {shows("listViews") ? (
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
      ) : null}
      {shows("listNamespaces") ? (
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
      ) : null}
      {may("createNamespace") || may("dropNamespace") ? (
        <section aria-labelledby="ns-actions" class="content-actions">
          <h2 id="ns-actions">Change</h2>
          {may("createNamespace") ? (
            <CreateNamespaceForm prefix={prefix} parent={levels} onCreated={changed} />
          ) : null}
          {may("dropNamespace") ? (
            <DropNamespaceButton
              prefix={prefix}
              levels={levels}
              onDropped={() => {
                changed();
                if (levels.length > 1) {
                  go("browse", catalog, "namespace", nsKey(levels.slice(0, -1)));
                } else {
                  go("browse", catalog);
                }
              }}
            />
          ) : null}
        </section>
      ) : null}
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
